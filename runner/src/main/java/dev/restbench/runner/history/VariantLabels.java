package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunRecord;

/**
 * What the site labels and filters variants with: each variant's label, description and classification as the
 * runs recorded them (run.json {@code variants[]}, from benchmarks.json). latest.json carries the newest run's;
 * index.json keeps {@code variants: {name: {...}}} over the whole history, the newest run's entry winning, so a
 * variant that left the manifest is still labelled on the trend charts.
 */
final class VariantLabels {
    private VariantLabels() {
    }

    /**
     * Copies the label, description and classification the run recorded for a variant (none for runs written before
     * they existed), under the same names.
     */
    static void copy(RunRecord.Variant variant, ObjectNode target) {
        if (variant.label() != null) {
            target.put("label", variant.label());
        }
        if (variant.description() != null) {
            target.put("description", variant.description());
        }
        if (variant.classification().isObject()) {
            target.set("classification", variant.classification().deepCopy());
        }
    }

    /** Adds or refreshes the run's variants in index.json's {@code variants} map, unless the run is older. */
    static void remember(ObjectNode index, RunRecord run) {
        ObjectNode known = index.has("variants") && index.get("variants").isObject()
                ? (ObjectNode) index.get("variants") : index.putObject("variants");
        for (RunRecord.Variant variant : run.variants()) {
            if (variant.label() == null && variant.description() == null) {
                continue;
            }
            String name = variant.name();
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
