package dev.restbench.runner.manifest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestException;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The runner's own check on top of the shared loader: the metric catalogue is exactly what the runner computes. */
class ManifestsTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @Test
    void theRepositoryManifestDescribesExactlyTheProducedMetrics() {
        Manifest manifest = Manifests.load(ROOT.resolve("benchmarks.json"));
        assertThat(manifest.metrics()).extracting(Manifest.MetricDefinition::id)
                .containsExactlyInAnyOrderElementsOf(Manifests.PRODUCED_METRICS);
    }

    @Test
    void aMetricTheRunnerDoesNotProduceIsReported() throws IOException {
        ObjectNode manifest = repositoryManifest();
        ((ObjectNode) manifest.withArray("metrics").get(0)).put("id", "happiness");
        String text = Json.MAPPER.writeValueAsString(manifest);
        assertThatThrownBy(() -> Manifests.parse(text, "test.json"))
                .isInstanceOfSatisfying(ManifestException.class, e -> assertThat(e.problems()).containsExactly(
                        "/metrics: no entry for metric 'throughput' (the runner produces it)",
                        "/metrics/0/id: unknown metric 'happiness' (the runner does not produce it)"));
    }

    @Test
    void theRunCommandRefusesAnInvalidManifestAndWritesNothing(@TempDir Path tmp) throws IOException {
        ObjectNode manifest = repositoryManifest();
        ((ObjectNode) manifest.get("profiles").get("smoke")).put("trials", 0);
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, Json.MAPPER.writeValueAsString(manifest));
        String err = stderrOf(() -> assertThat(dev.restbench.runner.Main.execute(List.of("run", "--manifest",
                file.toString(), "--profile", "smoke", "--results", tmp.resolve("results").toString()))).isEqualTo(2));
        assertThat(err).contains("invalid manifest " + file)
                .contains("/profiles/smoke/trials: must have a minimum value of 1");
        assertThat(tmp.resolve("results")).doesNotExist();
    }

    static ObjectNode repositoryManifest() throws IOException {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(Files.readString(ROOT.resolve("benchmarks.json")));
        manifest.remove("$schema");
        return manifest;
    }

    static String stderrOf(Runnable action) {
        PrintStream original = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setErr(original);
        }
        return err.toString(StandardCharsets.UTF_8);
    }
}
