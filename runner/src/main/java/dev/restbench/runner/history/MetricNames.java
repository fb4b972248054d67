package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;

import java.util.List;

/**
 * What the site titles metrics with: each metric's name, label and unit as the runs recorded them (run.json
 * {@code metricDefinitions}, from benchmarks.json's catalogue, their one home). latest.json carries the newest run's
 * definitions; index.json keeps {@code metrics: {id: {...}}} over the whole history, the newest run's winning, so a
 * trend chart of a metric the newest run no longer has is still titled.
 */
final class MetricNames {
    static final List<String> FIELDS = List.of(RunRecord.DEFINITION_NAME, RunRecord.DEFINITION_LABEL,
            RunRecord.DEFINITION_UNIT);

    private MetricNames() {
    }

    /** Adds or refreshes the run's metrics in index.json's {@code metrics} map, unless the run is older. */
    static void remember(ObjectNode index, RunRecord run) {
        ObjectNode known = index.has("metrics") && index.get("metrics").isObject()
                ? (ObjectNode) index.get("metrics") : index.putObject("metrics");
        for (JsonNode metric : run.metricDefinitions()) {
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
            entry.put("runId", run.runId());
        }
    }
}
