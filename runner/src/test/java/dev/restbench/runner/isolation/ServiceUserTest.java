package dev.restbench.runner.isolation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * BENCH_SERVICE_USER's mechanics on real processes of a throwaway user ({@link ThrowawayUser}: created as root,
 * skipped elsewhere): the uid and environment a command gets, killing everything of the user, copying its files out
 * without reading through its links, and refusing results it could write.
 */
class ServiceUserTest {
    private static ThrowawayUser throwaway;
    private static ServiceUser user;

    @BeforeAll
    static void createUser() throws Exception {
        throwaway = ThrowawayUser.create();
        user = throwaway.user();
    }

    @AfterAll
    static void removeUser() throws Exception {
        if (throwaway != null) {
            throwaway.close();
        }
    }

    private static String output(Process process) throws Exception {
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return out;
    }

    @Test
    void aCommandRunsAsTheUserWithoutNewPrivilegesAndWithNoneOfTheRunnersEnvironment() throws Exception {
        Path dir = user.newDirectory("env");
        ProcessBuilder builder = new ProcessBuilder(user.command(List.of("sh", "-c",
                "grep -E '^(Uid|Gid|NoNewPrivs):' /proc/self/status; env; echo cwd=$(pwd)"), Map.of("EXTRA", "1"),
                dir, dir)).redirectErrorStream(true);
        builder.environment().put("RESTBENCH_RUNNER_SECRET", "must not reach the service");
        String out = output(builder.start());

        int uid = throwaway.uid();
        assertThat(out).contains("Uid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid)
                .contains("NoNewPrivs:\t1")
                .contains("HOME=" + dir).contains("USER=" + throwaway.name()).contains("EXTRA=1")
                .contains("cwd=" + dir)
                .doesNotContain("RESTBENCH_RUNNER_SECRET");
    }

    @Test
    void stopAllEndsEveryProcessOfTheUserDetachedOrNot() throws Exception {
        Path dir = user.newDirectory("stop");
        Process started = new ProcessBuilder(user.command(List.of("sh", "-c",
                "setsid sleep 600 </dev/null >/dev/null 2>&1 & trap '' TERM; sleep 600"), Map.of(), dir, dir))
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (user.processes().size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(user.processes()).as("sh, its sleep and the detached one").hasSizeGreaterThanOrEqualTo(3);

        user.stopAll();

        assertThat(user.processes()).isEmpty();
        assertThat(started.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void refusesRootUnknownUsersAndNamesThatAreNoUserNames() {
        assertThatThrownBy(() -> ServiceUser.of("root")).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageContaining("uid 0");
        assertThatThrownBy(() -> ServiceUser.of("rbtest-no-such-user")).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageContaining("no such user");
        assertThatThrownBy(() -> ServiceUser.of("a b")).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageContaining("not a user name");
    }

    /** ./bench empties the user's home and kills its processes: an account someone logs in with is refused. */
    @Test
    void refusesAUserWithALoginShell() throws Exception {
        String person = throwaway.name() + "-p";
        org.junit.jupiter.api.Assumptions.assumeTrue(new ProcessBuilder("useradd", "--system", "--shell", "/bin/bash",
                person).start().waitFor() == 0, "needs root to create a second user");
        try {
            assertThatThrownBy(() -> ServiceUser.of(person)).isInstanceOf(ServiceUser.Unusable.class)
                    .hasMessageContaining("has the login shell '/bin/bash'");
        } finally {
            new ProcessBuilder("userdel", person).start().waitFor();
        }
    }

    @Test
    void copyOutReadsAsTheUserSoItsLinkToTheRunnersFilesGivesNothing(@TempDir Path runner) throws Exception {
        Path secret = runner.resolve("secret.txt");
        Files.writeString(secret, "the runner's");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        Path dir = user.newDirectory("out");
        assertThat(output(new ProcessBuilder(user.command(List.of("sh", "-c",
                "echo made by the service > made.txt; ln -s " + secret + " link.txt"), Map.of(),
                dir, dir)).redirectErrorStream(true).start())).isEmpty();

        user.copyOut(dir.resolve("made.txt"), runner.resolve("copy.txt"));
        assertThat(runner.resolve("copy.txt")).hasContent("made by the service");
        assertThat(Files.getAttribute(runner.resolve("copy.txt"), "unix:uid"))
                .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
        assertThatThrownBy(() -> user.copyOut(dir.resolve("link.txt"), runner.resolve("stolen.txt")))
                .hasMessageContaining("is not a regular file (symbolic link)");
        assertThat(runner.resolve("stolen.txt")).doesNotExist();
    }

    @Test
    void refusesResultsTheUserCouldWriteOrReplace(@TempDir Path tmp) throws Exception {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path results = Files.createDirectories(tmp.resolve("results/run"));
        user.requireUnwritable(results);

        Path open = Files.createDirectories(tmp.resolve("open/run"));
        Files.setPosixFilePermissions(tmp.resolve("open"), PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> user.requireUnwritable(open)).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageContaining(throwaway.name() + " may write " + tmp.resolve("open") + " (not sticky)");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertThatThrownBy(() -> user.requireUnwritable(open)).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageContaining(throwaway.name() + " may write " + open + ";");

        Path theirs = user.newDirectory("results");
        assertThatThrownBy(() -> user.requireUnwritable(theirs)).isInstanceOf(ServiceUser.Unusable.class)
                .hasMessageMatching(".*(belongs to " + throwaway.name() + "|cannot check).*");
    }
}
