package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void derivedManifestListsTheCopiesWithTheirArtifactsEnvAndRounds() throws Exception {
        // The repository's manifest plus an entry that extends another: copies carry what they inherit.
        ObjectNode source = (ObjectNode) JSON.readTree(ROOT.resolve("benchmarks.json").toFile());
        source.withArray("variants").addObject().put("name", "jersey-on-25").put("extends", "jersey")
                .putObject("env").put("EXTRA", "1");
        Path manifest = dir.resolve("benchmarks.json");
        JSON.writeValue(manifest.toFile(), source);
        Path jar = dir.resolve("base/services/jersey/target/jersey.jar");

        Path derived = Copies.deriveManifest(manifest, List.of(
                        new Copies.Copy("jersey", "base", jar, Map.of()),
                        new Copies.Copy("jersey", "cpu5", null, Map.of("FAULT_CPU_PERCENT", "5")),
                        new Copies.Copy("jersey-on-25", "head", null, Map.of())),
                "smoke", 6, List.of("join-filter"), List.of("capacity"), 600000.0, dir.resolve("d.json"));

        JsonNode root = JSON.readTree(derived.toFile());
        assertThat(root.has("$schema")).isFalse();
        assertThat(root.get("variants")).extracting(v -> v.get("name").asText())
                .containsExactly("jersey--base", "jersey--cpu5", "jersey-on-25--head");
        assertThat(root.get("variants").get(0).get("artifact").asText()).isEqualTo(jar.toAbsolutePath().toString());
        assertThat(root.get("variants").get(0).has("build")).as("built in its worktree, not here").isFalse();
        assertThat(root.get("variants").get(1).get("artifact").asText()).isEqualTo("services/jersey/target/jersey.jar");
        assertThat(root.get("variants").get(1).get("env").get("FAULT_CPU_PERCENT").asText()).isEqualTo("5");
        assertThat(root.get("variants").get(2).has("extends")).isFalse();
        assertThat(root.get("variants").get(2).get("env").get("EXTRA").asText()).isEqualTo("1");
        assertThat(root.get("variants").get(2).get("folder").asText()).isEqualTo("services/jersey");
        assertThat(root.get("profiles").get("quick").has("variants")).as("the derived manifest runs only its copies").isFalse();
        JsonNode smoke = root.get("profiles").get("smoke");
        assertThat(smoke.get("trials").asInt()).isEqualTo(6);
        assertThat(smoke.get("windows")).isEqualTo(source.get("profiles").get("smoke").get("windows"));
        assertThat(smoke.get("scenarios")).extracting(JsonNode::asText).containsExactly("join-filter");
        assertThat(smoke.get("regimes")).extracting(JsonNode::asText).containsExactly("capacity");
        assertThat(root.get("errorBudget").get("capacityP99Ms").asDouble()).isEqualTo(600000.0);
        // What an A/B run or a drill hands the runner loads as a manifest of its own.
        assertThat(ManifestLoader.load(derived).variants()).extracting(Manifest.Variant::name).hasSize(3);

        assertThatThrownBy(() -> Copies.deriveManifest(manifest, List.of(new Copies.Copy("nope", "a", null, Map.of())),
                "smoke", 1, null, null, null, dir.resolve("x.json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown variant 'nope'");
    }
}
