package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;

import java.util.List;

/**
 * What the site labels and filters variants with: each variant's label, description and classification as the
 * runs recorded them (run.json {@code variants[]}, from benchmarks.json). latest.json carries the newest run's;
 * index.json keeps {@code variants: {name: {...}}} over the whole history, the newest run's entry winning, so a
 * variant that left the manifest is still labelled on the trend charts.
 */
final class VariantLabels {
    static final List<String> FIELDS = List.of("label", "description", "classification");

    private VariantLabels() {
    }

    /** Copies the label fields the run recorded for a variant (none for runs written before they existed). */
    static void copy(JsonNode variant, ObjectNode target) {
        for (String field : FIELDS) {
            if (variant.hasNonNull(field)) {
                target.set(field, variant.get(field).deepCopy());
            }
        }
    }

    /** Adds or refreshes the run's variants in index.json's {@code variants} map, unless the run is older. */
    static void remember(ObjectNode index, RunRecord run) {
        ObjectNode known = index.has("variants") && index.get("variants").isObject()
                ? (ObjectNode) index.get("variants") : index.putObject("variants");
        for (JsonNode variant : run.raw().path("variants")) {
            if (!variant.hasNonNull("label") && !variant.hasNonNull("description")) {
                continue;
            }
            String name = variant.path("name").asText();
            JsonNode previous = known.get(name);
            if (previous != null && previous.path("runId").asText().compareTo(run.runId()) > 0) {
                continue; // a newer run already described it (runs may be appended out of order)
            }
            ObjectNode entry = known.putObject(name);
            copy(variant, entry);
            entry.put("runId", run.runId());
        }
    }
}
