package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.isolation.ThrowawayUser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A service, its AOT training and its profiling as a service user (BENCH_SERVICE_USER), on real JVMs of a throwaway
 * user ({@link ThrowawayUser}): the service's process is that user's and is the one the runner reads CPU from and
 * attaches jcmd to; stopping ends it and everything it started; the AOT cache and the JFR recording end up the
 * runner's.
 */
class IsolatedServiceTest {
    private static ThrowawayUser throwaway;
    private static ServiceUser user;
    /** The test classes as a jar in a directory the user can read (the runner's own may be private). */
    private static Path jar;

    @BeforeAll
    static void setUp() throws Exception {
        throwaway = ThrowawayUser.create();
        user = throwaway.user();
        jar = ThrowawayUser.readableDirectory().resolve("services.jar");
        try (var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            for (Class<?> type : List.of(AotCacheTest.Service.class, FlameGraphsTest.Busy.class)) {
                String entry = type.getName().replace('.', '/') + ".class";
                out.putNextEntry(new java.util.jar.JarEntry(entry));
                try (var in = type.getClassLoader().getResourceAsStream(entry)) {
                    in.transferTo(out);
                }
                out.closeEntry();
            }
        }
        Files.setPosixFilePermissions(jar, PosixFilePermissions.fromString("rw-r--r--"));
    }

    @AfterAll
    static void tearDown() throws Exception {
        if (jar != null) {
            Files.deleteIfExists(jar);
            Files.deleteIfExists(jar.getParent());
        }
        if (throwaway != null) {
            throwaway.close();
        }
    }

    private static Path java(int version) {
        try {
            return Runtimes.ofThisMachine().find(new Manifest.Runtime("jdk", version)).executable();
        } catch (RuntimeException e) {
            Assumptions.abort("no JDK " + version + " on this machine: " + e.getMessage());
            return null;
        }
    }

    private static ServiceProcess.Launch launch(Path java, List<String> jvmOptions, String mainClass, int port) {
        List<String> argv = new ArrayList<>(List.of(java.toString()));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-cp", jar.toString(), mainClass, Integer.toString(port)));
        return new ServiceProcess.Launch(argv, Map.of("SERVICE_SETTING", "given"), port, "0", "/health", "/health");
    }

    @Test
    void theServiceRunsAsTheUserAndIsTheProcessTheRunnerReadsAndStops(@TempDir Path dir) throws Exception {
        int port = ServiceProcess.freePort();
        ServiceProcess service = ServiceProcess.start(launch(java(17), List.of(), AotCacheTest.Service.class.getName(),
                port), dir.resolve("logs/service.log"), Optional.of(user));
        long pid;
        try {
            assertThat(service.awaitHealthy(Duration.ofSeconds(60))).isPositive();
            pid = service.pid();
            assertThat(ThrowawayUser.uidOf(pid)).as("/proc/<pid>/status Uid").isEqualTo(throwaway.uid());
            assertThat(ProcessHandle.of(pid).orElseThrow().info().command().orElse("")).endsWith("/java");
            assertThat(Files.readString(Path.of("/proc", Long.toString(pid), "status")))
                    .as("pinned by taskset before the prefix").contains("Cpus_allowed_list:\t0\n");
            assertThat(service.cpuMicros()).as("CPU from /proc of another uid").isPresent();
            assertThat(service.cpuMicros().getAsLong()).isPositive();
            assertThat(service.jitThreadCpuMicros()).isNotEmpty();
            String environ = new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")));
            assertThat(environ).contains("SERVICE_SETTING=given").contains("HOME=" + service.dir());
            assertThat(Files.getAttribute(dir.resolve("logs/service.log"), "unix:uid")).as("the runner's log")
                    .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
        } finally {
            service.close();
        }
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(service.isAlive()).isFalse();
        assertThat(user.processes()).isEmpty();
    }

    @Test
    void stoppingEndsAServiceThatIgnoresSigtermAndWhatItDetached(@TempDir Path dir) throws Exception {
        ServiceProcess service = ServiceProcess.start(new ServiceProcess.Launch(List.of("sh", "-c",
                "setsid sleep 600 </dev/null >/dev/null 2>&1 & trap '' TERM; while :; do sleep 1; done"), Map.of(),
                ServiceProcess.freePort(), null, "/health", "/health"), dir.resolve("stubborn.log"), Optional.of(user));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (user.processes().size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(ThrowawayUser.uidOf(service.pid())).isEqualTo(throwaway.uid());

        long t = System.nanoTime();
        service.stop(Duration.ofSeconds(1));

        assertThat(service.isAlive()).isFalse();
        assertThat(user.processes()).as("the detached sleep too").isEmpty();
        assertThat((System.nanoTime() - t) / 1e9).as("SIGKILL after the grace").isLessThan(8);
    }

    @Test
    void aServiceThatCannotStartFailsWithItsLog(@TempDir Path dir) throws Exception {
        try (ServiceProcess service = ServiceProcess.start(new ServiceProcess.Launch(List.of("sh", "-c",
                "echo Error: no such thing >&2; exit 4"), Map.of(), ServiceProcess.freePort(), null, "/health",
                "/health"), dir.resolve("failing.log"), Optional.of(user))) {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> service.awaitHealthy(Duration.ofSeconds(10)))
                    .isInstanceOf(ServiceProcess.StartFailure.class)
                    .hasMessageContaining("exited with code 4").hasMessageContaining("Error: no such thing");
        }
    }

    @Test
    void theAotTrainingWritesAsTheUserAndTheRunnersCopyIsWhatStartsRead(@TempDir Path dir) throws Exception {
        Path java = java(25);
        Path readable = ThrowawayUser.readableDirectory();
        Path written = user.session().resolve("aot/service.aot");
        Path cache = readable.resolve("service.aot");
        try {
            int port = ServiceProcess.freePort();
            AotCache.train(launch(java, AotCache.trainingOptions(written), AotCacheTest.Service.class.getName(), port),
                    written, cache, dir.resolve("training.log"), Duration.ofSeconds(60), Optional.of(user));

            assertThat(Files.size(cache)).isGreaterThan(1_000_000);
            assertThat(Files.getAttribute(cache, "unix:uid"))
                    .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rw-r--r--");
            try (ServiceProcess started = ServiceProcess.start(launch(java, AotCache.useOptions(cache),
                    AotCacheTest.Service.class.getName(), port), dir.resolve("run.log"), Optional.of(user))) {
                assertThat(started.awaitHealthy(Duration.ofSeconds(60))).as("-XX:AOTMode=on accepted it").isPositive();
            }
        } finally {
            Files.deleteIfExists(cache);
            Files.deleteIfExists(readable);
        }
    }

    @Test
    void jcmdAttachesAsTheUserAndTheRecordingBecomesTheRunners(@TempDir Path runDir) throws Exception {
        Path java = java(17);
        ServiceProcess busy = ServiceProcess.start(launch(java, List.of(), FlameGraphsTest.Busy.class.getName(), 0),
                runDir.resolve("busy.log"), Optional.of(user));
        try {
            Thread.sleep(1_500);
            FlameGraphs graphs = new FlameGraphs(runDir, 3, Optional.of(user));
            FlameGraphs.Recording recording = graphs.start(java.resolveSibling("jcmd"), busy.pid());
            Thread.sleep(TimeUnit.SECONDS.toMillis(graphs.seconds()));
            FlameGraphs.Result result = graphs.finish(recording, "busy-cell-s1", "busy · cell");

            assertThat(result.reason()).isNull();
            Path jfr = runDir.resolve(result.jfr());
            assertThat(Files.getAttribute(jfr, "unix:uid"))
                    .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
            assertThat(Files.readString(runDir.resolve("flamegraphs/busy-cell-s1/cpu.collapsed.txt")))
                    .contains("FlameGraphsTest$Busy.spinAndAllocate");
        } finally {
            busy.close();
        }
    }
}
