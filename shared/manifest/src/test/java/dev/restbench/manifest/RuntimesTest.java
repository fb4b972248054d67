package dev.restbench.manifest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Runtime lookup on a fake machine: JDK folders with release files, node executables with a version. */
class RuntimesTest {
    private static final Manifest.Runtime JDK17 = new Manifest.Runtime("jdk", 17);
    private static final Manifest.Runtime JDK25 = new Manifest.Runtime("jdk", 25);
    private static final Manifest.Runtime NODE20 = new Manifest.Runtime("node", 20);

    @TempDir
    Path machine;

    private final Map<String, String> env = new HashMap<>();
    private final Map<Path, String> nodeVersions = new HashMap<>();

    private Runtimes runtimes() {
        return new Runtimes(env, machine.resolve("running-jdk"), 17, "17.0.15", List.of(machine.resolve("usr/lib/jvm")),
                List.of(machine.resolve("nvm")), node -> Optional.ofNullable(nodeVersions.get(node)));
    }

    @Test
    void theRunningJdkServesItsOwnVersion() {
        Runtimes.Found found = runtimes().find(JDK17);
        assertThat(found.home()).isEqualTo(machine.resolve("running-jdk"));
        assertThat(found.executable()).isEqualTo(machine.resolve("running-jdk/bin/java"));
        assertThat(found.version()).isEqualTo("17.0.15");
    }

    @Test
    void anotherJdkIsFoundByItsReleaseFileInTheInstallFolders() throws IOException {
        jdk("usr/lib/jvm/java-21-openjdk", "21.0.2");
        jdk("usr/lib/jvm/temurin-25-jdk-amd64", "25.0.1");
        Runtimes.Found found = runtimes().find(JDK25);
        assertThat(found.home()).isEqualTo(machine.resolve("usr/lib/jvm/temurin-25-jdk-amd64"));
        assertThat(found.version()).isEqualTo("25.0.1");
    }

    @Test
    void theEnvironmentWinsOverTheInstallFoldersAndIsCheckedToo() throws IOException {
        jdk("usr/lib/jvm/temurin-25", "25.0.1");
        Path other = jdk("opt/jdk-25", "25.0.2");
        env.put("JAVA25_HOME", other.toString());
        assertThat(runtimes().find(JDK25).home()).isEqualTo(other);

        env.put("JAVA25_HOME", jdk("opt/jdk-21", "21.0.2").toString());
        assertThatThrownBy(() -> runtimes().find(JDK25)).isInstanceOf(Runtimes.NotFound.class)
                .hasMessage("$JAVA25_HOME is " + machine.resolve("opt/jdk-21") + ", which is not a JDK 25 (its release"
                        + " file says 21.0.2)");
    }

    @Test
    void aMissingJdkIsOneLineThatSaysWhereItLooked() {
        assertThatThrownBy(() -> runtimes().find(JDK25)).isInstanceOf(Runtimes.NotFound.class)
                .hasMessage("no JDK 25 on this machine: looked at the running JDK (17.0.15), $JAVA_HOME_25_X64,"
                        + " $JAVA_HOME_25_ARM64, $JAVA25_HOME, $JDK25_HOME, $JAVA_HOME and " + machine.resolve("usr/lib/jvm")
                        + "/*; install one or set JAVA25_HOME");
    }

    @Test
    void nodeIsFoundOnThePathByItsVersion() throws IOException {
        Path old = executable("bin-old/node");
        Path current = executable("opt/node20/bin/node");
        nodeVersions.put(old.toRealPath(), "v18.19.0");
        nodeVersions.put(current.toRealPath(), "v20.20.2");
        env.put("PATH", old.getParent() + ":" + current.getParent());
        Runtimes.Found found = runtimes().find(NODE20);
        assertThat(found.executable()).isEqualTo(current.toRealPath());
        assertThat(found.home()).isEqualTo(machine.resolve("opt/node20").toRealPath());
        assertThat(found.version()).isEqualTo("20.20.2");
        assertThatThrownBy(() -> runtimes().find(new Manifest.Runtime("node", 22)))
                .hasMessageStartingWith("no Node.js 22 on this machine: looked at $NODE22_HOME, node on PATH and ");
    }

    @Test
    void versionsParse() {
        assertThat(Runtimes.major("25.0.1")).isEqualTo(25);
        assertThat(Runtimes.major("1.8.0_402")).isEqualTo(8);
        assertThat(Runtimes.major("21")).isEqualTo(21);
        assertThat(Runtimes.major("25-ea")).isEqualTo(25);
    }

    private Path jdk(String folder, String version) throws IOException {
        Path home = machine.resolve(folder);
        executable(folder + "/bin/java");
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    private Path executable(String path) throws IOException {
        Path file = machine.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
