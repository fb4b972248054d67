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

    /**
     * A Maven variant that compiles another folder's sources (its pom names a sibling folder, {@code ../spring-mvc})
     * must list that folder in build.inputs, or a change there would leave its artifact stale and a run would measure
     * the old code. Reads every variant's pom as text: the build-helper source roots and the copy-resources
     * directories name their folders so.
     */
    @Test
    void everySiblingFolderAVariantsPomNamesIsABuildInput() throws IOException {
        Manifest manifest = Manifests.load(ROOT.resolve("benchmarks.json"));
        java.util.regex.Pattern sibling = java.util.regex.Pattern.compile("\\.\\./([A-Za-z0-9._-]+)");
        int checked = 0;
        for (Manifest.Variant variant : manifest.variants()) {
            Path pom = ROOT.resolve(variant.folder()).resolve("pom.xml");
            if (!variant.build().isMaven() || !Files.isRegularFile(pom)) {
                continue;
            }
            Path parent = ROOT.resolve(variant.folder()).getParent();
            var named = sibling.matcher(Files.readString(pom)).results().map(m -> m.group(1))
                    .filter(name -> !name.startsWith(".") && Files.isDirectory(parent.resolve(name)))
                    .map(name -> ROOT.relativize(parent.resolve(name).normalize()).toString().replace('\\', '/'))
                    .distinct().toList();
            assertThat(variant.build().inputs()).as(variant.name() + ": build.inputs").containsAll(named);
            variant.build().inputs().forEach(input ->
                    assertThat(ROOT.resolve(input)).as(variant.name() + ": build input " + input).isDirectory());
            checked++;
        }
        assertThat(checked).as("Maven variants checked").isGreaterThan(5);
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
