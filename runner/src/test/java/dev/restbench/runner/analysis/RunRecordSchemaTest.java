package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * run.json's shape has one home, run.schema.json: what the runner writes is validated against it (RunOutputs), and
 * every field {@link RunRecord} reads must be declared there, at the place it is read from. A field renamed in the
 * schema and the writer but not in the reader would otherwise read as absent, silently.
 */
class RunRecordSchemaTest {

    @Test
    void everyFieldTheReaderNamesIsDeclaredWhereItIsRead() throws IOException {
        JsonNode schema = schema();
        List<String> undeclared = new ArrayList<>();
        RunRecord.fieldsRead().forEach((where, names) -> names.forEach(name -> {
            if (!declared(schema, where, name)) {
                undeclared.add(where + "/" + name);
            }
        }));

        assertThat(RunRecord.fieldsRead()).as("the reader names fields at these places").containsKeys("", "/cells/*",
                "/cells/*/trials/*", "/cells/*/metrics/*", "/variants/*", "/comparisons/*/ratios/*", "/hostCheck");
        assertThat(undeclared).as("fields RunRecord reads that run.schema.json does not declare there").isEmpty();
    }

    /** The check itself: a name the schema lacks, or one declared elsewhere, is found undeclared. */
    @Test
    void findsANameTheSchemaDoesNotDeclareThere() throws IOException {
        JsonNode schema = schema();

        assertThat(declared(schema, "/cells/*/trials/*", "round")).isTrue();
        assertThat(declared(schema, "/cells/*/metrics/*", "ci95")).as("through $ref and additionalProperties").isTrue();
        assertThat(declared(schema, "/cells/*", "round")).as("declared on the trial, not the cell").isFalse();
        assertThat(declared(schema, "/cells/*/trials/*", "rounds")).isFalse();
        assertThat(declared(schema, "/no/such/place", "id")).isFalse();
        Map<String, Set<String>> reads = RunRecord.fieldsRead();
        assertThat(reads.get("")).contains(RunRecord.CELLS, RunRecord.VARIANTS, RunRecord.COMPARISONS);
    }

    private static JsonNode schema() throws IOException {
        try (InputStream in = RunRecordSchemaTest.class.getResourceAsStream("/schemas/run.schema.json")) {
            return Json.MAPPER.readTree(in);
        }
    }

    /**
     * Whether the object at {@code where} (a JSON pointer whose {@code *} steps into an array's items or an object's
     * additionalProperties) declares the property {@code name}.
     */
    static boolean declared(JsonNode schema, String where, String name) {
        JsonNode node = resolve(schema, schema);
        for (String step : where.isEmpty() ? new String[0] : where.substring(1).split("/")) {
            node = "*".equals(step)
                    ? (node.has("items") ? node.path("items") : node.path("additionalProperties"))
                    : node.path("properties").path(step);
            node = resolve(schema, node);
            if (node.isMissingNode()) {
                return false;
            }
        }
        return node.path("properties").has(name);
    }

    private static JsonNode resolve(JsonNode schema, JsonNode node) {
        while (node.path("$ref").isTextual()) {
            node = schema.at(node.path("$ref").asText().substring(1));
        }
        return node;
    }
}
