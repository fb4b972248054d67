package dev.restbench.runner.isolation;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A service user for the tests: as root, a throwaway system user created here (no login shell, a home) and removed
 * with all its processes by {@link #close()}; otherwise the user named by {@code RESTBENCH_TEST_SERVICE_USER} (which
 * needs the sudoers rule of docs/runner-host.md for the user running the tests), else the test is skipped, saying so.
 */
public final class ThrowawayUser implements AutoCloseable {
    public static final String ENV = "RESTBENCH_TEST_SERVICE_USER";

    private final String name;
    private final boolean created;
    private final ServiceUser user;

    private ThrowawayUser(String name, boolean created) {
        this.name = name;
        this.created = created;
        this.user = ServiceUser.of(name);
    }

    /** Creates one (as root) or takes RESTBENCH_TEST_SERVICE_USER; aborts the test (skipped) when neither can be. */
    public static ThrowawayUser create() throws IOException, InterruptedException {
        String given = System.getenv(ENV);
        if (given != null && !given.isBlank()) {
            return new ThrowawayUser(given.strip(), false);
        }
        Assumptions.assumeTrue(isRoot(), "needs root to create a throwaway service user (useradd), or "
                + ENV + "=<user> that the user running the tests may run processes as (sudo -n -u <user>)");
        String name = "rbtest-" + HexFormat.of().formatHex(randomBytes());
        run("useradd", "--system", "--create-home", "--home-dir", "/var/tmp/" + name, "--shell", "/usr/sbin/nologin",
                name);
        return new ThrowawayUser(name, true);
    }

    public String name() {
        return name;
    }

    public ServiceUser user() {
        return user;
    }

    /** The uid as /proc shows it. */
    public int uid() {
        return user.uid();
    }

    /** A new directory the runner owns and the service user can read (0755), e.g. for a jar it starts. */
    public static Path readableDirectory() throws IOException {
        Path dir = Files.createTempDirectory("restbench-test-readable-");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /** The effective uid of a process, from /proc/&lt;pid&gt;/status. */
    public static long uidOf(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("Uid:")) {
                return Long.parseLong(line.substring(4).trim().split("\\s+")[1]);
            }
        }
        throw new IOException("no Uid line for " + pid);
    }

    @Override
    public void close() throws Exception {
        try {
            user.stopAll();
        } finally {
            if (created) {
                new ProcessBuilder("pkill", "-KILL", "-u", name).start().waitFor(); // should find nothing
                run("userdel", "--remove", name);
            }
        }
    }

    private static boolean isRoot() {
        try {
            return uidOf(ProcessHandle.current().pid()) == 0;
        } catch (IOException e) {
            return false;
        }
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[3];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }

    private static void run(String... argv) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(List.of(argv)).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", argv) + " failed: " + output);
        }
    }
}
