package dev.restbench.runner.manifest;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestLoaderTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @Test
    void theRepositoryManifestIsValid() {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        assertThat(manifest.variants()).extracting(Manifest.Variant::name)
                .containsExactly("jersey", "spring-mvc", "spring-data-rest");
        assertThat(manifest.profiles()).containsKeys("smoke", "quick", "full");
        assertThat(manifest.defaultProfile()).isEqualTo("quick");
        assertThat(manifest.metrics()).extracting(Manifest.MetricDefinition::id)
                .containsExactlyInAnyOrderElementsOf(ManifestLoader.PRODUCED_METRICS);
    }

    @Test
    void aWrongTypeIsReportedAtItsPath() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).put("port", "8082"),
                "/variants/1/port: string found, integer expected");
    }

    @Test
    void aMissingRequiredFieldIsReportedAtItsParent() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(0)).remove("artifact"),
                "/variants/0: required property 'artifact' not found");
    }

    @Test
    void anUnknownEnumValueIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(2)).put("dialect", "json-api"),
                "/variants/2/dialect: does not have a value in the enumeration [\"plain\", \"hal\"]");
    }

    @Test
    void anUnknownPropertyIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("profiles").get("quick")).put("windowSecs", 10),
                "/profiles/quick: property 'windowSecs' is not defined in the schema and the schema does not allow additional properties");
    }

    @Test
    void aWarmupWhoseStableWindowExceedsItsMinimumIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("profiles").get("quick").get("warmup")).put("stableSeconds", 30),
                "/profiles/quick/warmup: needs stableSeconds <= minSeconds <= maxSeconds (has 30, 20, 120)");
    }

    @Test
    void aBadCpuSetIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.get("pinning")).put("service", "one"),
                "/pinning/service: does not match the regex pattern ^[0-9]+(-[0-9]+)?(,[0-9]+(-[0-9]+)?)*$");
    }

    @Test
    void aProfileNamingAnUnknownScenarioIsReported() throws IOException {
        assertProblem(m -> ((ArrayNode) m.get("profiles").get("smoke").get("scenarios")).add("write-only"),
                "/profiles/smoke/scenarios/1: unknown scenario 'write-only' (known: heavy-body, join-filter, mixed, point-read, read-heavy)");
    }

    @Test
    void duplicateVariantNamesAreReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("variants").get(1)).put("name", "jersey"),
                "/variants/1/name: duplicate name 'jersey'");
    }

    @Test
    void aMetricInTheWrongSuiteIsReported() throws IOException {
        assertProblem(m -> ((ObjectNode) m.withArray("metrics").get(1)).put("suite", "throughput"),
                "/metrics/1/suite: suite 'throughput' holds exactly the bigger-is-better metrics, 'costs' the smaller-is-better ones");
    }

    @Test
    void notJsonIsReportedWithItsPosition() {
        assertThatThrownBy(() -> ManifestLoader.parse("{\n  \"schemaVersion\": 1,,\n}", "bad.json"))
                .isInstanceOf(ManifestException.class)
                .hasMessageStartingWith("invalid manifest bad.json:\n  not valid JSON: line 2, column 22");
    }

    @Test
    void theRunCommandRefusesAnInvalidManifestAndWritesNothing(@org.junit.jupiter.api.io.TempDir Path tmp) throws IOException {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(Files.readString(ROOT.resolve("benchmarks.json")));
        ((ObjectNode) manifest.get("profiles").get("smoke")).put("trials", 0);
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, Json.MAPPER.writeValueAsString(manifest));
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream original = System.err;
        System.setErr(new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8));
        int exit;
        try {
            exit = dev.restbench.runner.Main.execute(java.util.List.of("run", "--manifest", file.toString(),
                    "--profile", "smoke", "--results", tmp.resolve("results").toString()));
        } finally {
            System.setErr(original);
        }
        assertThat(exit).isEqualTo(2);
        assertThat(err.toString(java.nio.charset.StandardCharsets.UTF_8))
                .contains("invalid manifest " + file)
                .contains("/profiles/smoke/trials: must have a minimum value of 1");
        assertThat(tmp.resolve("results")).doesNotExist();
    }

    private static void assertProblem(Consumer<ObjectNode> breakIt, String expected) throws IOException {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(Files.readString(ROOT.resolve("benchmarks.json")));
        breakIt.accept(manifest);
        String text = Json.MAPPER.writeValueAsString(manifest);
        assertThatThrownBy(() -> ManifestLoader.parse(text, "test.json"))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems()).containsExactly(expected));
    }
}
