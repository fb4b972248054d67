package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.HistoryJudge;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.analysis.Verdict;
import dev.restbench.runner.stats.Summary;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * dev/bench/latest.json: the newest run's cells, each metric judged against the history ({@link HistoryJudge}: a
 * verdict only from a prediction interval over at least 10 comparable past runs, the others shown without one), with
 * its 95 % interval, the cell's steadiness and bottleneck. The site's overview reads only this file and index.json on
 * first load.
 */
final class LatestJson {

    /** Comparable past runs the prediction interval is built from (the newest ones). */
    static final int HISTORY_WINDOW = 30;
    static final double ALPHA = 0.05;
    static final double MIN_EFFECT_PCT = 5.0;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LatestJson() {
    }

    static ObjectNode build(List<RunRecord> runs) {
        return build(runs, path -> false);
    }

    /** @param inHistory whether a file (a path relative to the history) is there: only those are linked */
    static ObjectNode build(List<RunRecord> runs, java.util.function.Predicate<String> inHistory) {
        ObjectNode latest = NODES.objectNode();
        latest.put("schemaVersion", 2);
        if (runs.isEmpty()) {
            return latest;
        }
        RunRecord head = runs.get(runs.size() - 1);
        MetricRules rules = MetricRules.ofRecord(head, MIN_EFFECT_PCT);
        Judgement judgement = HistoryJudge.judge(runs.subList(0, runs.size() - 1), head, HISTORY_WINDOW, ALPHA, rules);
        Map<String, SeriesVerdict> bySeries = new HashMap<>();
        judgement.rows().forEach(row -> bySeries.put(row.seriesKey(), row));

        latest.put("runId", head.runId());
        latest.set("commit", commitSummary(head));
        latest.put("profile", head.profile());
        latest.set("environment", head.environment().deepCopy());
        // How the figures were taken and what each metric means, as the newest run recorded them (absent in older
        // records): the site's Method page shows them beside the numbers.
        for (String field : List.of(RunRecord.METHOD, RunRecord.METRIC_DEFINITIONS, RunRecord.COMPARISONS)) {
            if (head.raw().hasNonNull(field)) {
                latest.set(field, head.raw().get(field).deepCopy());
            }
        }
        ObjectNode method = latest.putObject("verdicts");
        method.put("method", judgement.method().detail());
        method.put("alpha", ALPHA);
        method.put("minEffectPct", rules.commonMinEffectPct());
        ObjectNode exceptions = method.putObject("minEffectExceptions");
        rules.exceptions().forEach(exceptions::put);
        method.put("status", judgement.status().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
        if (judgement.base() == null) {
            latest.putNull("baseline");
        } else {
            ObjectNode base = latest.putObject("baseline");
            base.put("runId", judgement.base().runId());
            base.set("commit", commitSummary(judgement.base()));
        }
        var variants = latest.putArray("variants");
        for (RunRecord.Variant variant : head.variants()) {
            ObjectNode out = variants.addObject();
            String name = variant.name();
            out.put("name", name);
            VariantLabels.copy(variant, out);
            ObjectNode startup = out.putObject("startup");
            for (RunRecord.Point point : head.points()) {
                if (point.variant().equals(name) && RunRecord.STARTUP_SCENARIO.equals(point.scenario())
                        && point.values().length > 0) {
                    ObjectNode metric = startup.putObject(point.metric());
                    metric.put("unit", point.unit());
                    summary(metric, Summary.of(point.values()));
                }
            }
        }
        var cells = latest.putArray("cells");
        for (RunRecord.Cell cell : head.cells()) {
            ObjectNode out = cells.addObject();
            String variant = cell.variant();
            String scenario = cell.scenario();
            String regime = cell.regime();
            boolean ok = cell.ok();
            out.put("variant", variant);
            out.put("scenario", scenario);
            out.put("regime", regime);
            // not-measured: never begun (no runtime on the runner, no budget left), which the site says as such.
            String status = cell.status();
            out.put("status", status);
            if (ok) {
                out.putNull("reason");
            } else {
                out.put("reason", cell.reason() == null ? status : cell.reason());
            }
            out.put("steady", cell.steady());
            warmupSeconds(cell, out);
            if (cell.bottleneck() != null) {
                out.put("bottleneck", cell.bottleneck());
            } else {
                out.putNull("bottleneck");
            }
            flameGraphs(head.runId(), cell, inHistory, out);
            SeriesVerdict failure = bySeries.get(variant + "/" + scenario + "/" + regime + "/—");
            if (failure != null) {
                out.put("verdict", failure.verdict().json());
            }
            ObjectNode metrics = out.putObject("metrics");
            if (!ok) {
                continue;
            }
            for (RunRecord.Point point : head.points()) {
                if (!point.ok() || point.values().length == 0 || !point.variant().equals(variant)
                        || !point.scenario().equals(scenario) || !point.regime().equals(regime)) {
                    continue;
                }
                JsonNode source = cell.metric(point.metric());
                SeriesVerdict result = bySeries.get(point.seriesKey());
                ObjectNode metric = metrics.putObject(point.metric());
                metric.put("unit", point.unit());
                metric.put("direction", point.direction().json());
                metric.put("primary", point.primary());
                summary(metric, Summary.of(point.values()));
                for (String field : RunRecord.SUMMARY_ESTIMATES) {
                    if (source.has(field)) {
                        metric.set(field, source.get(field).deepCopy());
                    }
                }
                if (result == null || result.base() == null) {
                    metric.putNull("baseline");
                } else {
                    ObjectNode base = metric.putObject("baseline");
                    base.put("value", JsJson.round(result.base().value()));
                    base.put("runs", result.base().starts());
                }
                putNumber(metric, "deltaPct", result == null ? null : result.changePct());
                putNumber(metric, "lowPct", result == null ? null : result.lowPct());
                putNumber(metric, "highPct", result == null ? null : result.highPct());
                metric.put("verdict", result == null ? Verdict.NO_VERDICT.json() : result.verdict().json());
                if (result != null && result.reason() != null) {
                    metric.put("reason", result.reason());
                }
            }
        }
        return latest;
    }

    /** The cell's warmup over its starts (mean, and the longest): how long it took to be steady, or the cap. */
    private static void warmupSeconds(RunRecord.Cell cell, ObjectNode out) {
        double sum = 0;
        double max = 0;
        int n = 0;
        for (RunRecord.Trial trial : cell.trials()) {
            Double w = trial.warmupSeconds();
            // A start that failed or was never begun has no warmup that reached the windows: left out.
            if (w != null && trial.measured()) {
                sum += w;
                max = Math.max(max, w);
                n++;
            }
        }
        if (n > 0) {
            ObjectNode warmup = out.putObject("warmup");
            warmup.put("meanSeconds", Math.round(sum / n * 10) / 10.0);
            warmup.put("maxSeconds", Math.round(max * 10) / 10.0);
            warmup.put("starts", n);
        }
    }

    /** The cell's flame graphs (the first start that has both), as history paths; absent when none were kept. */
    private static void flameGraphs(String runId, RunRecord.Cell cell, java.util.function.Predicate<String> inHistory,
                                    ObjectNode out) {
        for (RunRecord.Trial trial : cell.trials()) {
            String cpu = FlameGraphLinks.inHistory(runId, trial.cpuFlameGraph());
            String alloc = FlameGraphLinks.inHistory(runId, trial.allocFlameGraph());
            if (cpu != null && alloc != null && inHistory.test(cpu) && inHistory.test(alloc)) {
                ObjectNode graphs = out.putObject("flameGraphs");
                graphs.put("cpu", cpu);
                graphs.put("alloc", alloc);
                return;
            }
        }
    }

    static ObjectNode commitSummary(RunRecord run) {
        JsonNode source = run.commit();
        ObjectNode commit = NODES.objectNode();
        commit.put("id", run.commitId());
        commit.put("message", source.path(RunRecord.COMMIT_MESSAGE).asText(""));
        commit.put("author", source.path(RunRecord.COMMIT_AUTHOR).asText(""));
        commit.put("timestamp", source.path(RunRecord.COMMIT_TIMESTAMP).asText(""));
        if (source.path(RunRecord.COMMIT_URL).isTextual()) {
            commit.put("url", source.path(RunRecord.COMMIT_URL).asText());
        } else {
            commit.putNull("url");
        }
        return commit;
    }

    private static void summary(ObjectNode target, Summary summary) {
        target.put("n", summary.n());
        target.put("value", JsJson.round(summary.value()));
        target.put("median", JsJson.round(summary.median()));
        target.put("min", JsJson.round(summary.min()));
        target.put("max", JsJson.round(summary.max()));
        putNumber(target, "spreadPct", summary.spreadPct());
    }

    private static void putNumber(ObjectNode target, String field, Double value) {
        if (value == null || !Double.isFinite(value)) {
            target.putNull(field);
        } else {
            target.put(field, JsJson.round(value));
        }
    }
}
