package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.HistoricalNoise;
import dev.restbench.runner.analysis.MetricComparison;
import dev.restbench.runner.analysis.RunComparison;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.Stats;
import dev.restbench.runner.analysis.VerdictRule;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * dev/bench/latest.json: the newest run's cells, each metric compared with the previous comparable run (same
 * environment fingerprint and profile) using the series' historical noise. The site's overview reads only this
 * file and index.json on first load.
 */
final class LatestJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private LatestJson() {
    }

    static ObjectNode build(List<RunRecord> runs) {
        ObjectNode latest = NODES.objectNode();
        latest.put("schemaVersion", 1);
        if (runs.isEmpty()) {
            return latest;
        }
        RunRecord head = runs.get(runs.size() - 1);
        RunRecord baseline = null;
        for (int i = runs.size() - 2; i >= 0; i--) {
            if (runs.get(i).ok() && runs.get(i).comparableWith(head)) {
                baseline = runs.get(i);
                break;
            }
        }
        RunComparison comparison = RunComparison.compare(baseline, head,
                HistoricalNoise.forHead(runs.subList(0, runs.size() - 1), head), new VerdictRule());
        Map<String, MetricComparison> bySeries = new HashMap<>();
        comparison.rows().forEach(row -> bySeries.put(row.seriesKey(), row.result()));

        latest.put("runId", head.runId());
        latest.set("commit", commitSummary(head));
        latest.put("profile", head.profile());
        latest.set("environment", head.environment().deepCopy());
        if (baseline == null) {
            latest.putNull("baseline");
        } else {
            ObjectNode base = latest.putObject("baseline");
            base.put("runId", baseline.runId());
            base.set("commit", commitSummary(baseline));
        }
        var variants = latest.putArray("variants");
        for (JsonNode variant : head.raw().path("variants")) {
            ObjectNode out = variants.addObject();
            String name = variant.path("name").asText();
            out.put("name", name);
            VariantLabels.copy(variant, out);
            ObjectNode startup = out.putObject("startup");
            for (RunRecord.Point point : head.points()) {
                if (point.variant().equals(name) && RunRecord.STARTUP_SCENARIO.equals(point.scenario())
                        && point.values().length > 0) {
                    ObjectNode metric = startup.putObject(point.metric());
                    metric.put("unit", point.unit());
                    summary(metric, Stats.summarize(point.values()));
                }
            }
        }
        var cells = latest.putArray("cells");
        for (JsonNode cell : head.raw().path("cells")) {
            ObjectNode out = cells.addObject();
            String variant = cell.path("variant").asText();
            String scenario = cell.path("scenario").asText();
            String regime = cell.path("regime").asText();
            boolean ok = "ok".equals(cell.path("status").asText());
            out.put("variant", variant);
            out.put("scenario", scenario);
            out.put("regime", regime);
            out.put("status", ok ? "ok" : "failed");
            if (ok) {
                out.putNull("reason");
            } else {
                out.put("reason", cell.path("reason").asText("failed"));
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
                MetricComparison result = bySeries.get(point.seriesKey());
                ObjectNode metric = metrics.putObject(point.metric());
                metric.put("unit", point.unit());
                metric.put("direction", point.direction().json());
                summary(metric, Stats.summarize(point.values()));
                if (result == null || result.base() == null) {
                    metric.putNull("baseline");
                } else {
                    ObjectNode base = metric.putObject("baseline");
                    base.put("median", JsJson.round(result.base().median()));
                    base.put("n", result.base().n());
                    putNumber(base, "spreadPct", result.base().spreadPct());
                }
                putNumber(metric, "deltaPct", result == null ? null : result.deltaPct());
                metric.put("verdict", result == null ? "inconclusive" : result.verdict().json());
                putNumber(metric, "noiseBandPct", result == null ? null : result.noiseBandPct());
            }
        }
        return latest;
    }

    static ObjectNode commitSummary(RunRecord run) {
        JsonNode source = run.commit();
        ObjectNode commit = NODES.objectNode();
        commit.put("id", run.commitId());
        commit.put("message", source.path("message").asText(""));
        commit.put("author", source.path("author").asText(""));
        commit.put("timestamp", source.path("timestamp").asText(""));
        if (source.path("url").isTextual()) {
            commit.put("url", source.path("url").asText());
        } else {
            commit.putNull("url");
        }
        return commit;
    }

    private static void summary(ObjectNode target, Stats.Summary summary) {
        target.put("n", summary.n());
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
