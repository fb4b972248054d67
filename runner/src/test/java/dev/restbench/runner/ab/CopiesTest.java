package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CopiesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void derivedManifestListsTheCopiesWithTheirArtifactsEnvAndRounds() throws Exception {
        Path manifest = dir.resolve("benchmarks.json");
        Files.writeString(manifest, """
                {"$schema": "./benchmarks.schema.json", "variants": [
                  {"name": "jersey", "artifact": "services/jersey/target/jersey.jar", "dialect": "plain"},
                  {"name": "spring-mvc", "artifact": "services/spring-mvc/target/spring-mvc.jar", "dialect": "plain"}],
                 "errorBudget": {"maxErrorPct": 1, "capacityP99Ms": 2000},
                 "profiles": {"smoke": {"trials": 1, "windows": 2, "windowSeconds": 2, "dataset": "small"}}}
                """);
        Path jar = dir.resolve("base/services/jersey/target/jersey.jar");

        Path derived = Copies.deriveManifest(manifest, List.of(
                        new Copies.Copy("jersey", "base", jar, Map.of()),
                        new Copies.Copy("jersey", "cpu5", null, Map.of("FAULT_CPU_PERCENT", "5"))),
                "smoke", 6, List.of("join-filter"), List.of("capacity"), 600000.0, dir.resolve("d.json"));

        JsonNode root = JSON.readTree(derived.toFile());
        assertThat(root.has("$schema")).isFalse();
        assertThat(root.get("variants")).extracting(v -> v.get("name").asText())
                .containsExactly("jersey--base", "jersey--cpu5");
        assertThat(root.get("variants").get(0).get("artifact").asText()).isEqualTo(jar.toAbsolutePath().toString());
        assertThat(root.get("variants").get(1).get("artifact").asText()).isEqualTo("services/jersey/target/jersey.jar");
        assertThat(root.get("variants").get(1).get("env").get("FAULT_CPU_PERCENT").asText()).isEqualTo("5");
        JsonNode smoke = root.get("profiles").get("smoke");
        assertThat(smoke.get("trials").asInt()).isEqualTo(6);
        assertThat(smoke.get("windows").asInt()).isEqualTo(2);
        assertThat(smoke.get("scenarios")).extracting(JsonNode::asText).containsExactly("join-filter");
        assertThat(smoke.get("regimes")).extracting(JsonNode::asText).containsExactly("capacity");
        assertThat(root.get("errorBudget").get("capacityP99Ms").asDouble()).isEqualTo(600000.0);

        assertThatThrownBy(() -> Copies.deriveManifest(manifest, List.of(new Copies.Copy("nope", "a", null, Map.of())),
                "smoke", 1, null, null, null, dir.resolve("x.json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown variant 'nope'");
    }
}
