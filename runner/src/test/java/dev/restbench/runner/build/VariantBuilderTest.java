package dev.restbench.runner.build;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.manifest.Manifests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The builder on a repository of its own with command build steps (real processes, no Maven). */
class VariantBuilderTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @TempDir
    Path repo;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    /** The repository's manifest with one command-built variant "app" whose build counts its runs. */
    private Manifest manifest(String command, String... inputs) throws Exception {
        ObjectNode json = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        json.remove("$schema");
        json.get("profiles").forEach(p -> ((ObjectNode) p).remove("variants"));
        ArrayNode variants = json.putArray("variants");
        ObjectNode app = variants.addObject().put("name", "app").put("folder", "apps/app").put("artifact", "apps/app/out/app.txt")
                .put("dialect", "plain");
        ObjectNode build = app.putObject("build").put("tool", "command");
        build.putArray("command").add("sh").add("-c").add(command);
        if (inputs.length > 0) {
            ArrayNode declared = build.putArray("inputs");
            List.of(inputs).forEach(declared::add);
        }
        app.putObject("classification").put("framework", "f").put("server", "s").put("threading", "platform")
                .put("language", "sh").put("dataAccess", "none");
        // The same build on a newer JDK: shares app's step (built once, on the lower JDK).
        variants.addObject().put("name", "app-newer").put("extends", "app")
                .putObject("runtime").put("name", "jdk").put("version", 99);
        Files.createDirectories(repo.resolve("apps/app"));
        Files.writeString(repo.resolve("apps/app/source.txt"), "v1");
        return Manifests.parse(Json.MAPPER.writeValueAsString(json), "test.json");
    }

    private VariantBuilder builder(Manifest manifest) {
        return new VariantBuilder(repo, manifest, Runtimes.ofThisMachine(),
                new PrintStream(output, true, StandardCharsets.UTF_8));
    }

    private static final String BUILD = "mkdir -p apps/app/out && cat apps/app/source.txt > apps/app/out/app.txt"
            + " && echo run >> builds.log";

    private long builds() throws Exception {
        return Files.isRegularFile(repo.resolve("builds.log")) ? Files.readAllLines(repo.resolve("builds.log")).size() : 0;
    }

    @Test
    void buildsOnlyWhatIsStaleAndOnceForVariantsSharingAStep() throws Exception {
        Manifest manifest = manifest(BUILD);
        VariantBuilder builder = builder(manifest);
        List<Manifest.Variant> both = manifest.variants();
        VariantBuilder.Step step = builder.steps(both).get(0);
        assertThat(builder.steps(both)).hasSize(1);
        assertThat(step.runtime()).as("the lowest JDK of the variants sharing it").isEqualTo(new Manifest.Runtime("jdk", 17));
        assertThat(builder.steps(List.of(both.get(1))).get(0).runtime()).as("whatever is selected")
                .isEqualTo(step.runtime());
        assertThat(builder.staleness(step)).contains("apps/app/out/app.txt is missing");

        builder.build(both, false, false);
        assertThat(builds()).isEqualTo(1);
        assertThat(Files.readString(repo.resolve("apps/app/out/app.txt"))).isEqualTo("v1");
        builder.build(both, false, false);
        builder.build(List.of(both.get(1)), false, false);
        assertThat(builds()).as("up to date, whichever variant asks").isEqualTo(1);

        Files.writeString(repo.resolve("apps/app/source.txt"), "v2");
        Files.setLastModifiedTime(repo.resolve("apps/app/source.txt"), FileTime.fromMillis(0)); // an older file counts too
        assertThat(builder.staleness(step)).contains("its inputs changed since the last build");
        builder.build(both, false, false);
        assertThat(builds()).isEqualTo(2);
        assertThat(Files.readString(repo.resolve("apps/app/out/app.txt"))).isEqualTo("v2");

        Files.createDirectories(repo.resolve("apps/app/node_modules"));
        Files.writeString(repo.resolve("apps/app/node_modules/cache"), "x"); // build output, not an input
        assertThat(builder.staleness(step)).isEmpty();
        builder.build(both, true, false);
        assertThat(builds()).as("--force").isEqualTo(3);
    }

    /** build.inputs: a folder outside the variant's own that its build reads (sources compiled again) counts too. */
    @Test
    void aChangeInADeclaredInputFolderMakesTheStepStale() throws Exception {
        Files.createDirectories(repo.resolve("lib"));
        Files.writeString(repo.resolve("lib/shared.txt"), "s1");
        String build = "mkdir -p apps/app/out && cat lib/shared.txt apps/app/source.txt > apps/app/out/app.txt"
                + " && echo run >> builds.log";

        Manifest undeclared = manifest(build);
        VariantBuilder plain = builder(undeclared);
        plain.build(undeclared.variants(), false, false);
        Files.writeString(repo.resolve("lib/shared.txt"), "s2");
        assertThat(plain.staleness(plain.steps(undeclared.variants()).get(0)))
                .as("not declared: the change goes unseen").isEmpty();

        Manifest declared = manifest(build, "lib");
        assertThat(declared.variants().get(0).build().inputs()).containsExactly("lib");
        VariantBuilder builder = builder(declared);
        VariantBuilder.Step step = builder.steps(declared.variants()).get(0);
        builder.build(declared.variants(), false, false);
        assertThat(builder.staleness(step)).isEmpty();
        Files.writeString(repo.resolve("lib/shared.txt"), "s3");
        assertThat(builder.staleness(step)).contains("its inputs changed since the last build");
        builder.build(declared.variants(), false, false);
        assertThat(Files.readString(repo.resolve("apps/app/out/app.txt"))).startsWith("s3");
    }

    @Test
    void aFailingBuildOrOneWithoutItsArtifactIsOneLineAndRecordsNothing() throws Exception {
        Manifest failing = manifest("echo broken >&2; exit 3");
        assertThatThrownBy(() -> builder(failing).build(failing.variants(), false, false))
                .isInstanceOf(VariantBuilder.BuildFailure.class)
                .hasMessage("build of app, app-newer failed (exit 3; its output is above)");
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("  broken");

        Manifest nothing = manifest("true");
        assertThatThrownBy(() -> builder(nothing).build(nothing.variants(), false, false))
                .hasMessage("the build of app, app-newer succeeded but did not produce apps/app/out/app.txt (the manifest's artifact)");
        assertThat(repo.resolve(VariantBuilder.WORK).resolve("stamps")).doesNotExist();
    }
}
