package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MetricNamesTest {

    private static RunRecord run(String runId, String name) {
        ObjectNode raw = RunFixtures.run(runId, "c" + runId, "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick",
                Map.of("throughput", new double[] {1}));
        raw.remove("metricDefinitions");
        raw.withArray("metricDefinitions").addObject().put("id", "throughput").put("name", "Throughput")
                .put("scope", "cell").putArray("tables").add("measures");
        ObjectNode cpu = raw.withArray("metricDefinitions").addObject().put("id", "cpu_us_per_req").put("name", name)
                .put("label", "CPU µs/req").put("unit", "µs").put("direction", "smaller").put("scope", "cell");
        cpu.putArray("tables").add("measures").add("resources");
        return RunRecord.of(raw, runId);
    }

    /** The site titles a metric with index.json's name even when the newest run no longer has the metric. */
    @Test
    void indexKeepsTheNewestRunsNameOfEveryMetric() {
        ObjectNode index = Json.MAPPER.createObjectNode();
        MetricNames.remember(index, run("20261121T000000Z-b", "CPU per request"));
        MetricNames.remember(index, run("20261120T000000Z-a", "CPU time per request")); // appended late, but older
        ObjectNode cpu = (ObjectNode) index.get("metrics").get("cpu_us_per_req");
        assertThat(cpu.get("name").asText()).isEqualTo("CPU per request");
        assertThat(cpu.get("label").asText()).isEqualTo("CPU µs/req");
        assertThat(cpu.get("unit").asText()).isEqualTo("µs");
        assertThat(cpu.has("direction")).as("only what titles and places it").isFalse();
    }

    /** Where the site places a metric comes from the catalogue too: its tables, its scope and its position. */
    @Test
    void indexKeepsWhereEachMetricIsShown() {
        ObjectNode index = Json.MAPPER.createObjectNode();
        MetricNames.remember(index, run("20261121T000000Z-b", "CPU per request"));
        ObjectNode cpu = (ObjectNode) index.get("metrics").get("cpu_us_per_req");
        assertThat(cpu.get("tables")).extracting(t -> t.asText()).containsExactly("measures", "resources");
        assertThat(cpu.get("scope").asText()).isEqualTo("cell");
        assertThat(cpu.get("position").asInt()).isEqualTo(1);
        assertThat(index.get("metrics").get("throughput").get("position").asInt()).isZero();
    }
}
