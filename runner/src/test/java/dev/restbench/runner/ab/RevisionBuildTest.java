package dev.restbench.runner.ab;

import dev.restbench.manifest.Runtimes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which artifacts an A/B revision has, by its own manifest (without building: --skip-build). */
class RevisionBuildTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @Test
    void aRevisionWithBuildStepsNamesItsArtifactsThroughItsResolvedManifest(@TempDir Path tree) throws Exception {
        // An entry ahead of the one it extends.
        String manifest = Files.readString(ROOT.resolve("benchmarks.json")).replaceFirst("\"variants\": \\[\n", """
                "variants": [
                    {"name": "jersey-again", "extends": "jersey"},
                """);
        Files.writeString(tree.resolve("benchmarks.json"), manifest);
        Map<String, Path> artifacts = RevisionBuild.artifacts(tree, List.of("jersey-again", "spring-mvc"),
                Runtimes.ofThisMachine(), false);
        assertThat(artifacts).containsExactly(
                Map.entry("jersey-again", tree.resolve("services/jersey/target/jersey.jar")),
                Map.entry("spring-mvc", tree.resolve("services/spring-mvc/target/spring-mvc.jar")));
        assertThatThrownBy(() -> RevisionBuild.artifacts(tree, List.of("no-such-variant"), Runtimes.ofThisMachine(),
                false))
                .hasMessageContaining("variant 'no-such-variant' is not in " + tree.resolve("benchmarks.json"));
    }

    @Test
    void anInvalidManifestOfTheCurrentFormatIsAnErrorNotTheOldWay(@TempDir Path tree) throws Exception {
        Files.writeString(tree.resolve("benchmarks.json"), Files.readString(ROOT.resolve("benchmarks.json"))
                .replace("\"dialect\": \"hal\"", "\"dialect\": \"json-api\""));
        assertThatThrownBy(() -> RevisionBuild.artifacts(tree, List.of("jersey"), Runtimes.ofThisMachine(), false))
                .isInstanceOf(dev.restbench.manifest.ManifestException.class).hasMessageContaining("/dialect");
    }

    @Test
    void aRevisionFromBeforeBuildStepsIsReadTheOldWay(@TempDir Path tree) throws Exception {
        // benchmarks.json as it was before variants had folders and build steps (it no longer loads).
        Files.writeString(tree.resolve("benchmarks.json"), """
                {"schemaVersion": 1, "variants": [
                  {"name": "jersey", "artifact": "services/jersey/target/jersey.jar", "port": 0, "dialect": "plain"}]}""");
        assertThat(RevisionBuild.artifacts(tree, List.of("jersey"), Runtimes.ofThisMachine(), false))
                .containsExactly(Map.entry("jersey", tree.resolve("services/jersey/target/jersey.jar")));
    }
}
