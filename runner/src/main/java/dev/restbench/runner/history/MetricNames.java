package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;

import java.util.List;

/**
 * What the site titles and places metrics with: each metric's name, label, unit, scope and report tables as the runs
 * recorded them (run.json {@code metricDefinitions}, from benchmarks.json's catalogue, their one home), and its
 * {@code position} in that catalogue, the display order. latest.json carries the newest run's definitions; index.json
 * keeps {@code metrics: {id: {...}}} over the whole history, the newest run's winning, so a trend chart of a metric
 * the newest run no longer has is still titled and placed.
 */
final class MetricNames {
    static final List<String> FIELDS = List.of(RunRecord.DEFINITION_NAME, RunRecord.DEFINITION_LABEL,
            RunRecord.DEFINITION_UNIT, RunRecord.DEFINITION_SCOPE, RunRecord.DEFINITION_TABLES);

    private MetricNames() {
    }

    /** Adds or refreshes the run's metrics in index.json's {@code metrics} map, unless the run is older. */
    static void remember(ObjectNode index, RunRecord run) {
        ObjectNode known = index.has("metrics") && index.get("metrics").isObject()
                ? (ObjectNode) index.get("metrics") : index.putObject("metrics");
        int position = -1;
        for (JsonNode metric : run.metricDefinitions()) {
            position++;
            String id = metric.path(RunRecord.DEFINITION_ID).asText("");
            if (id.isEmpty()) {
                continue;
            }
            JsonNode previous = known.get(id);
            if (previous != null && previous.path("runId").asText().compareTo(run.runId()) > 0) {
                continue; // a newer run already described it (runs may be appended out of order)
            }
            ObjectNode entry = known.putObject(id);
            for (String field : FIELDS) {
                if (metric.hasNonNull(field)) {
                    entry.set(field, metric.get(field).deepCopy());
                }
            }
            entry.put("position", position);
            entry.put("runId", run.runId());
        }
    }
}
