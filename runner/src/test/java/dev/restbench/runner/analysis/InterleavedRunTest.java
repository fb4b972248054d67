package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InterleavedRunTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void derivedManifestListsTheCopiesWithTheirArtifactsEnvAndRepetitions() throws Exception {
        // The repository's manifest plus an entry that extends another: copies carry what they inherit.
        ObjectNode source = (ObjectNode) JSON.readTree(ROOT.resolve("benchmarks.json").toFile());
        source.withArray("variants").addObject().put("name", "jersey-jdk25").put("extends", "jersey")
                .putObject("env").put("EXTRA", "1");
        Path manifest = dir.resolve("benchmarks.json");
        JSON.writeValue(manifest.toFile(), source);
        Path jar = dir.resolve("base/services/jersey/target/jersey.jar");

        Path derived = InterleavedRun.deriveManifest(manifest, List.of(
                        new InterleavedRun.Copy("jersey", "base", jar, Map.of()),
                        new InterleavedRun.Copy("jersey", "slow5", null, Map.of("FAULT_CPU_PERCENT", "5")),
                        new InterleavedRun.Copy("jersey-jdk25", "head", null, Map.of())),
                "smoke", new InterleavedRun.ProfileOverrides(6, null, 5, List.of("capacity"), null), dir.resolve("d.json"));

        JsonNode root = JSON.readTree(derived.toFile());
        assertThat(root.has("$schema")).isFalse();
        assertThat(root.get("variants")).extracting(v -> v.get("name").asText())
                .containsExactly("jersey--base", "jersey--slow5", "jersey-jdk25--head");
        assertThat(root.get("variants").get(0).get("artifact").asText()).isEqualTo(jar.toAbsolutePath().toString());
        assertThat(root.get("variants").get(0).has("build")).as("built in its worktree, not here").isFalse();
        assertThat(root.get("variants").get(1).get("artifact").asText()).isEqualTo("services/jersey/target/jersey.jar");
        assertThat(root.get("variants").get(1).get("env").get("FAULT_CPU_PERCENT").asText()).isEqualTo("5");
        assertThat(root.get("variants").get(2).has("extends")).isFalse();
        assertThat(root.get("variants").get(2).get("env").get("EXTRA").asText()).isEqualTo("1");
        assertThat(root.get("variants").get(2).get("folder").asText()).isEqualTo("services/jersey");
        assertThat(root.get("profiles").get("quick").has("variants")).as("the derived manifest runs only its copies").isFalse();
        // Without profile overrides the derived manifest is itself a valid manifest (ProfileOverrides still writes
        // the profile fields of before trials/windows: that part is the measurement core's).
        Path plain = InterleavedRun.deriveManifest(manifest, List.of(new InterleavedRun.Copy("jersey-jdk25", "head", null,
                Map.of())), "smoke", new InterleavedRun.ProfileOverrides(null, null, null, null, null), dir.resolve("p.json"));
        assertThat(dev.restbench.manifest.ManifestLoader.load(plain).variants()).extracting(v -> v.name())
                .containsExactly("jersey-jdk25--head");
        JsonNode smoke = root.get("profiles").get("smoke");
        assertThat(smoke.get("repetitions").asInt()).isEqualTo(6);
        assertThat(smoke.get("windows")).as("fields without an override are kept").isEqualTo(JSON.readTree(ROOT.resolve("benchmarks.json").toFile()).get("profiles").get("smoke").get("windows"));
        assertThat(smoke.get("windowSeconds").asInt()).isEqualTo(5);
        assertThat(smoke.get("regimes")).extracting(JsonNode::asText).containsExactly("capacity");

        assertThatThrownBy(() -> InterleavedRun.deriveManifest(manifest,
                List.of(new InterleavedRun.Copy("nope", "a", null, Map.of())), "smoke",
                new InterleavedRun.ProfileOverrides(null, null, null, null, null), dir.resolve("x.json")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown variant 'nope'");
    }

    @Test
    void selectSplitsAnInterleavedRunIntoComparableRecords() throws Exception {
        var raw = RunFixtures.run("r1", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick",
                Map.of("throughput", new double[] {1000, 1001, 999, 1002, 998}));
        var cells = (com.fasterxml.jackson.databind.node.ArrayNode) raw.get("cells");
        var headCell = cells.get(0).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) cells.get(0)).put("variant", "jersey--base");
        ((com.fasterxml.jackson.databind.node.ObjectNode) headCell).put("variant", "jersey--head");
        cells.add(headCell);
        RunRecord run = RunFixtures.record(raw);

        RunRecord base = InterleavedRun.select(run, "base", "b1");
        RunRecord head = InterleavedRun.select(run, "head", "h1");

        assertThat(base.points()).extracting(RunRecord.Point::seriesKey)
                .containsExactly("jersey/read-heavy/latency/throughput");
        assertThat(head.points()).extracting(RunRecord.Point::seriesKey)
                .containsExactly("jersey/read-heavy/latency/throughput");
        assertThat(base.commitId()).isEqualTo("b1");
        assertThat(head.commitId()).isEqualTo("h1");
        assertThat(base.comparableWith(head)).isTrue();
        assertThat(RunComparison.compare(base, head, Map.of(), new VerdictRule()).rows())
                .singleElement().satisfies(row -> assertThat(row.result().verdict()).isEqualTo(Verdict.WITHIN_NOISE));
        assertThat(run.points()).hasSize(2); // the original is untouched
    }
}
