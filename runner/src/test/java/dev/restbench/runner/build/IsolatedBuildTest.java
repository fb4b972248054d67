package dev.restbench.runner.build;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.isolation.ThrowawayUser;
import dev.restbench.runner.manifest.Manifests;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link VariantBuilder} with a service user (BENCH_SERVICE_USER) on a repository of its own, with command build
 * steps that are real processes doing what a hostile build might: the build runs as that user in a copy, only the
 * artifact comes back (the runner's, plain modes), its edits of the sources and its writes into the real tree go
 * nowhere, what it leaves running is killed, and an artifact that is a link to the runner's files is refused.
 */
class IsolatedBuildTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    private static ThrowawayUser throwaway;

    @TempDir
    Path repo;

    private final ByteArrayOutputStream output = new ByteArrayOutputStream();

    @BeforeAll
    static void createUser() throws Exception {
        throwaway = ThrowawayUser.create();
    }

    @AfterAll
    static void removeUser() throws Exception {
        if (throwaway != null) {
            throwaway.close();
        }
    }

    /** The repository's manifest with one command-built variant "app" (artifact {@code artifact}). */
    private Manifest manifest(String artifact, String command) throws Exception {
        ObjectNode json = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        json.remove("$schema");
        json.get("profiles").forEach(p -> ((ObjectNode) p).remove("variants"));
        ArrayNode variants = json.putArray("variants");
        ObjectNode app = variants.addObject().put("name", "app").put("folder", "apps/app").put("artifact", artifact)
                .put("dialect", "plain");
        app.putObject("build").put("tool", "command").putArray("command").add("sh").add("-c").add(command);
        app.putObject("classification").put("framework", "f").put("server", "s").put("threading", "platform")
                .put("language", "sh").put("dataAccess", "none");
        Files.createDirectories(repo.resolve("apps/app"));
        Files.writeString(repo.resolve("apps/app/source.txt"), "v1");
        return Manifests.parse(Json.MAPPER.writeValueAsString(json), "test.json");
    }

    private VariantBuilder builder(Manifest manifest) {
        return new VariantBuilder(repo, manifest, Runtimes.ofThisMachine(),
                new PrintStream(output, true, StandardCharsets.UTF_8), Optional.of(throwaway.user()));
    }

    @Test
    void theBuildRunsAsTheUserInACopyAndOnlyItsArtifactComesBack() throws Exception {
        ServiceUser user = throwaway.user();
        Files.setPosixFilePermissions(repo, PosixFilePermissions.fromString("rwxr-xr-x")); // visible, not writable
        Manifest manifest = manifest("apps/app/out/app.txt", String.join(" && ",
                "mkdir -p apps/app/out",
                "grep '^Uid:' /proc/self/status > apps/app/out/app.txt",
                "chmod 4777 apps/app/out/app.txt", // set-uid and writable by all: not what the runner keeps
                "echo tampered > apps/app/source.txt", // its copy's source
                "{ touch " + repo.resolve("apps/app/escaped") + " 2>/dev/null || true; }", // the real tree
                "{ setsid sleep 600 </dev/null >/dev/null 2>&1 & }")); // left running
        VariantBuilder builder = builder(manifest);

        builder.build(manifest.variants(), false, false);

        Path artifact = repo.resolve("apps/app/out/app.txt");
        int uid = throwaway.uid();
        assertThat(artifact).hasContent("Uid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid);
        assertThat(Files.getAttribute(artifact, "unix:uid")).as("the runner's")
                .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(artifact))).isEqualTo("rw-r--r--");
        assertThat(repo.resolve("apps/app/source.txt")).hasContent("v1");
        assertThat(repo.resolve("apps/app/escaped")).doesNotExist();
        assertThat(user.processes()).as("what the build left running").isEmpty();
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("build: as " + user.describe());
        assertThat(builder.staleness(builder.steps(manifest.variants()).get(0))).as("stamped by the runner").isEmpty();
    }

    /**
     * What the user left in its home (Maven's ~/.m2 is the passwd entry's home, not HOME) or in /tmp is gone before a
     * build of a later ./bench, and Maven is pointed at the build's own home.
     */
    @Test
    void whatTheUserLeftBeforeIsGoneAndMavenUsesTheBuildsOwnHome() throws Exception {
        String name = throwaway.name();
        String home = new String(new ProcessBuilder("getent", "passwd", name).start().getInputStream().readAllBytes(),
                StandardCharsets.UTF_8).strip().split(":")[5];
        Path planted = Path.of("/tmp", name + "-planted");
        Process plant = new ProcessBuilder(throwaway.user().command(List.of("sh", "-c", "mkdir -p " + home
                + "/.m2 && echo '<settings/>' > " + home + "/.m2/settings.xml && echo x > " + planted), java.util.Map.of(),
                Path.of(home), Path.of(home))).redirectErrorStream(true).start();
        assertThat(new String(plant.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
        assertThat(plant.waitFor()).isZero();

        Manifest manifest = manifest("apps/app/out/app.txt", "mkdir -p apps/app/out && { echo \"opts $MAVEN_OPTS\";"
                + " echo \"home $HOME\"; ls -A " + home + "; ls " + planted + " 2>&1 || true; } > apps/app/out/app.txt");
        // A later ./bench: a user of its own (its session is made anew).
        new VariantBuilder(repo, manifest, Runtimes.ofThisMachine(), new PrintStream(output, true, StandardCharsets.UTF_8),
                Optional.of(ServiceUser.of(name))).build(manifest.variants(), false, false);

        List<String> seen = Files.readAllLines(repo.resolve("apps/app/out/app.txt"));
        String buildHome = seen.get(1).substring("home ".length());
        assertThat(seen.get(0)).isEqualTo("opts -Duser.home=" + buildHome);
        assertThat(buildHome).startsWith(home + "/restbench-session-");
        assertThat(seen.get(2)).as("the home holds only this ./bench's session").startsWith("restbench-session-");
        assertThat(seen).hasSize(4);
        assertThat(seen.get(3)).contains("No such file");
    }

    @Test
    void aDirectoryArtifactComesBackWithItsLinksAsLinks() throws Exception {
        Path secret = repo.resolve("secret.txt");
        Files.writeString(secret, "the runner's");
        Manifest manifest = manifest("apps/app/dist", String.join(" && ",
                "mkdir -p apps/app/dist/lib", "echo main > apps/app/dist/main.js",
                "ln -s " + secret + " apps/app/dist/lib/secret.txt", "ln -s ../main.js apps/app/dist/lib/main.js"));

        builder(manifest).build(manifest.variants(), false, false);

        Path dist = repo.resolve("apps/app/dist");
        assertThat(dist.resolve("main.js")).hasContent("main");
        assertThat(Files.isSymbolicLink(dist.resolve("lib/main.js"))).isTrue();
        assertThat(Files.readSymbolicLink(dist.resolve("lib/secret.txt"))).isEqualTo(secret);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dist))).isEqualTo("rwxr-xr-x");
    }

    @Test
    void anArtifactThatIsALinkIsRefused() throws Exception {
        Path secret = repo.resolve("secret.txt");
        Files.writeString(secret, "the runner's");
        Manifest manifest = manifest("apps/app/out/app.txt",
                "mkdir -p apps/app/out && ln -s " + secret + " apps/app/out/app.txt");

        assertThatThrownBy(() -> builder(manifest).build(manifest.variants(), false, false))
                .isInstanceOf(VariantBuilder.BuildFailure.class)
                .hasMessageContaining("cannot be taken from the build's copy")
                .hasMessageContaining("symbolic link");
        assertThat(repo.resolve("apps/app/out/app.txt")).doesNotExist();
    }

    @Test
    void aFailedBuildFailsWithItsExitCodeAndLeavesNothingRunning() throws Exception {
        Manifest manifest = manifest("apps/app/out/app.txt",
                "{ setsid sleep 600 </dev/null >/dev/null 2>&1 & } ; echo broken; exit 3");

        assertThatThrownBy(() -> builder(manifest).build(manifest.variants(), false, false))
                .isInstanceOf(VariantBuilder.BuildFailure.class).hasMessageContaining("failed (exit 3");
        assertThat(output.toString(StandardCharsets.UTF_8)).contains("  broken");
        assertThat(throwaway.user().processes()).isEmpty();
    }
}
