package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.stats.ChangePoints;
import dev.restbench.runner.stats.Summary;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * dev/bench/analysis.json: change points per series over the whole history, so the site draws them without
 * statistics of its own. A series' points are its run medians in history order; detection runs separately on
 * each group of comparable runs (same fingerprint and profile), so a new machine or profile is never mistaken
 * for a change in the code. Indexes are positions in the series' full history. A metric the newest record that has it
 * calls shown only ({@code shownOnly}: the planner's runs, 0 in most windows) gets no change points: its steps would
 * be ratios of near-zeros, which the verdicts do not judge either.
 */
final class AnalysisJson {

    static final String METHOD = "E-divisive means with Apache Otava's choices (both ends of each split searched, "
            + "Student's pooled t-test between neighbouring segments, Welch's when their variances differ), a split "
            + "kept at p <= " + ChangePoints.Settings.DEFAULTS.maxPValue() + " and a step >= "
            + ChangePoints.Settings.DEFAULTS.minEffectPct() + " %, segments >= "
            + ChangePoints.Settings.DEFAULTS.minSegment() + " runs; only runs with the same environment fingerprint "
            + "(machine and method) and profile";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private AnalysisJson() {
    }

    private record SeriesPoint(RunRecord run, double median) {
    }

    private record Found(String series, String commit, String date, double deltaPct, String kind) {
    }

    /**
     * The rules a run was measured under, for which metrics are shown only; a record whose definitions cannot be read
     * counts every metric as judged (change points found, as before the field existed) rather than stop the analysis
     * of the whole history.
     */
    private static MetricRules rulesOf(RunRecord run) {
        try {
            return MetricRules.ofRecord(run, ChangePoints.Settings.DEFAULTS.minEffectPct());
        } catch (IllegalArgumentException e) {
            return MetricRules.uniform(ChangePoints.Settings.DEFAULTS.minEffectPct());
        }
    }

    static ObjectNode build(List<RunRecord> runs) {
        Map<String, List<SeriesPoint>> series = new LinkedHashMap<>();
        Map<String, RunRecord.Point> meta = new LinkedHashMap<>();
        Map<String, Boolean> shownOnly = new LinkedHashMap<>();
        for (RunRecord run : runs) {
            MetricRules rules = rulesOf(run);
            for (RunRecord.Point point : run.points()) {
                if (point.ok() && point.values().length > 0) {
                    series.computeIfAbsent(point.seriesKey(), k -> new ArrayList<>())
                            .add(new SeriesPoint(run, Summary.center(point.values())));
                    meta.putIfAbsent(point.seriesKey(), point);
                    shownOnly.put(point.seriesKey(), rules.rule(point.metric()).shownOnly() != null);
                }
            }
        }
        ObjectNode analysis = NODES.objectNode();
        analysis.put("schemaVersion", 1);
        // The newest run's time rather than the clock, so re-appending the same run rewrites identical bytes.
        analysis.put("generatedAt", runs.isEmpty() ? "" : runs.get(runs.size() - 1).finishedAt());
        analysis.put("method", METHOD);
        ObjectNode seriesOut = analysis.putObject("series");
        List<Found> found = new ArrayList<>();
        series.forEach((key, points) -> {
            RunRecord.Point info = meta.get(key);
            ObjectNode out = seriesOut.putObject(key);
            out.put("unit", info.unit());
            out.put("direction", info.direction().json());
            ArrayNode changePoints = out.putArray("changePoints");
            for (List<Integer> group : shownOnly.get(key) ? List.<List<Integer>>of() : comparableGroups(points)) {
                double[] values = group.stream().mapToDouble(i -> points.get(i).median()).toArray();
                for (ChangePoints.ChangePoint cp : ChangePoints.detect(values)) {
                    int index = group.get(cp.index());
                    RunRecord run = points.get(index).run();
                    String kind = info.direction().isWorse(cp.after() - cp.before()) ? "regression" : "improvement";
                    ObjectNode node = changePoints.addObject();
                    node.put("commit", run.commitId());
                    node.put("date", run.finishedAt());
                    node.put("index", index);
                    node.put("before", JsJson.round(cp.before()));
                    node.put("after", JsJson.round(cp.after()));
                    node.put("deltaPct", JsJson.round(cp.deltaPct()));
                    node.put("kind", kind);
                    node.put("pValue", JsJson.round(cp.pValue()));
                    found.add(new Found(key, run.commitId(), run.finishedAt(), cp.deltaPct(), kind));
                }
            }
        });
        ArrayNode regressions = analysis.putArray("regressions");
        found.stream()
                .sorted(Comparator.comparing(Found::date).reversed().thenComparing(Found::series))
                .forEach(f -> {
                    ObjectNode node = regressions.addObject();
                    node.put("series", f.series());
                    node.put("commit", f.commit());
                    node.put("date", f.date());
                    node.put("deltaPct", JsJson.round(f.deltaPct()));
                    node.put("kind", f.kind());
                    node.put("source", "change-point");
                });
        return analysis;
    }

    /** Positions of the series' points grouped by (fingerprint, profile), each group in history order. */
    private static List<List<Integer>> comparableGroups(List<SeriesPoint> points) {
        Map<String, List<Integer>> groups = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            RunRecord run = points.get(i).run();
            groups.computeIfAbsent(run.fingerprint() + "\n" + run.profile(), k -> new ArrayList<>()).add(i);
        }
        return new ArrayList<>(groups.values());
    }
}
