package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class VariantLabelsTest {

    private static RunRecord run(String runId, String label) {
        ObjectNode raw = RunFixtures.run(runId, "c" + runId, "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick",
                Map.of("throughput", new double[] {1}));
        ObjectNode jersey = raw.withArray("variants").addObject().put("name", "jersey").put("label", label)
                .put("description", "JAX-RS");
        jersey.putObject("classification").put("server", "grizzly");
        raw.withArray("variants").addObject().put("name", "old-run-variant"); // recorded before labels existed
        return RunRecord.of(raw, runId);
    }

    @Test
    void indexKeepsTheNewestRunsDescriptionOfEveryVariant() {
        ObjectNode index = Json.MAPPER.createObjectNode();
        VariantLabels.remember(index, run("20261121T000000Z-b", "Jersey new"));
        VariantLabels.remember(index, run("20261120T000000Z-a", "Jersey old")); // appended late, but older
        assertThat(index.get("variants").get("jersey").get("label").asText()).isEqualTo("Jersey new");
        assertThat(index.get("variants").get("jersey").get("classification").get("server").asText()).isEqualTo("grizzly");
        assertThat(index.get("variants").has("old-run-variant")).as("nothing to say about it").isFalse();
    }
}
