package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Test helpers: find the run directory a run wrote and check its files against their contracts. */
final class RunOutputs {
    private RunOutputs() {
    }

    static Path onlyRun(Path results) throws IOException {
        try (Stream<Path> dirs = Files.list(results)) {
            List<Path> runs = dirs.filter(Files::isDirectory).toList();
            assertThat(runs).hasSize(1);
            return runs.get(0);
        }
    }

    static JsonNode validRunJson(Path runDir) throws IOException {
        JsonNode run = Json.MAPPER.readTree(runDir.resolve("run.json").toFile());
        JsonSchema schema;
        try (InputStream in = RunOutputs.class.getResourceAsStream("/schemas/run.schema.json")) {
            schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
        Set<ValidationMessage> problems = schema.validate(run);
        assertThat(problems).as("run.json against run.schema.json").isEmpty();
        assertThat(run.path("metricDefinitions")).as("the catalogue as the run used it, each metric with its version"
                + " (what drills pool parts by)").isNotEmpty().allSatisfy(d -> assertThat(d.path("version").isInt())
                .as(d.toString()).isTrue());
        return run;
    }

    /**
     * github-action-benchmark's custom tools read a JSON array of {name, unit, value, range?, extra?}: exactly those
     * fields, name/unit/range/extra strings and value a number.
     */
    static JsonNode validBenchFile(Path file) throws IOException {
        JsonNode entries = Json.MAPPER.readTree(file.toFile());
        assertThat(entries.isArray()).as(file + " is an array").isTrue();
        for (JsonNode entry : entries) {
            assertThat(entry.fieldNames()).toIterable().as(entry.toString())
                    .containsExactly("name", "unit", "value", "range", "extra");
            assertThat(entry.get("name").isTextual()).isTrue();
            assertThat(entry.get("unit").isTextual()).isTrue();
            assertThat(entry.get("value").isNumber()).as(entry.toString()).isTrue();
            assertThat(entry.get("range").isTextual()).isTrue();
            assertThat(entry.get("range").asText()).matches("± [0-9.Ee+-]+");
            assertThat(entry.get("extra").isTextual()).isTrue();
            assertThat(entry.get("name").asText()).matches("[a-z0-9-]+/[a-z0-9-]+/(capacity|latency|-)/[a-z0-9_]+");
        }
        return entries;
    }
}
