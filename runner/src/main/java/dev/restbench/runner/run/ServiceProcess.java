package dev.restbench.runner.run;

import dev.restbench.runner.isolation.ServiceUser;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One running instance of a variant: started pinned to its CPU set, probed for health, scraped, stopped. With a
 * {@link ServiceUser} it runs as that user in a fresh directory of its own (home and working directory), and
 * {@link #pid()} is the service behind the prefix, where its CPU is read and jcmd attaches.
 */
final class ServiceProcess implements ServiceUnderTest, AutoCloseable {
    /** How long the prefix (sudo, setpriv) may take to run the service as the user. */
    private static final Duration SWITCH_TIMEOUT = Duration.ofSeconds(10);

    private final Process process;
    private final long pid;
    private final ServiceUser user;
    private final Path dir;
    private final long spawnNanos;
    private final String baseUrl;
    private final String healthPath;
    private final String metricsPath;
    private final Path log;

    private ServiceProcess(Process process, long pid, ServiceUser user, Path dir, long spawnNanos, String baseUrl,
                           String healthPath, String metricsPath, Path log) {
        this.process = process;
        this.pid = pid;
        this.user = user;
        this.dir = dir;
        this.spawnNanos = spawnNanos;
        this.baseUrl = baseUrl;
        this.healthPath = healthPath;
        this.metricsPath = metricsPath;
        this.log = log;
    }

    /** What to start: resolved from the manifest (defaults merged with the variant's overrides). */
    record Launch(List<String> command, Map<String, String> env, int port, String cpuSet, String healthPath,
                  String metricsPath) {
    }

    static ServiceProcess start(Launch launch, Path log) throws IOException {
        return start(launch, log, Optional.empty());
    }

    /**
     * @param user the user to run it as; its processes are killed first, so nothing left by an earlier build or start
     *             shares the machine with this one
     */
    /**
     * The service's environment when it runs as the runner's own user: the runner's, without any fault switch
     * (FAULT_*) of its own, then the launch's. A fault reaches a service only from the manifest, which run.json records
     * (variants[].faults); one left in the shell would alter every variant unrecorded. (As a service user the
     * environment is clean already: ServiceUser.command.)
     */
    static void environment(Map<String, String> inherited, Map<String, String> launch) {
        inherited.keySet().removeIf(key -> key.startsWith(ResultsWriter.FAULT_PREFIX));
        inherited.putAll(launch);
    }

    static ServiceProcess start(Launch launch, Path log, Optional<ServiceUser> user) throws IOException {
        List<String> argv = new ArrayList<>();
        if (launch.cpuSet() != null) {
            // taskset execs the command: the pid we get is the JVM's own (or, as a service user, its prefix's).
            argv.addAll(List.of("taskset", "-c", launch.cpuSet()));
        }
        Path dir = null;
        if (user.isPresent()) {
            user.get().stopAll();
            dir = user.get().newDirectory("start");
            argv.addAll(user.get().command(launch.command(), launch.env(), dir, dir));
        } else {
            argv.addAll(launch.command());
        }
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        if (user.isEmpty()) {
            environment(builder.environment(), launch.env());
        }
        long spawn = System.nanoTime();
        Process process = builder.start();
        String baseUrl = "http://127.0.0.1:" + launch.port();
        if (user.isEmpty()) {
            ChildProcesses.register(process);
            return new ServiceProcess(process, process.pid(), null, null, spawn, baseUrl, launch.healthPath(),
                    launch.metricsPath(), log);
        }
        long pid = servicePid(process, user.get());
        ServiceProcess service = new ServiceProcess(process, pid, user.get(), dir, spawn, baseUrl, launch.healthPath(),
                launch.metricsPath(), log);
        ChildProcesses.register(service);
        return service;
    }

    /**
     * The process behind the prefix once it runs as the user (the prefix's own pid when it exited first: the start
     * then fails on its exit code and log).
     */
    private static long servicePid(Process process, ServiceUser user) {
        long deadline = System.nanoTime() + SWITCH_TIMEOUT.toNanos();
        while (true) {
            Optional<Long> pid = user.firstOwned(process.toHandle());
            if (pid.isPresent()) {
                return pid.get();
            }
            if (!process.isAlive()) {
                return process.pid();
            }
            if (System.nanoTime() > deadline) {
                process.destroyForcibly();
                user.stopAll();
                throw new StartFailure("no process of " + user.name() + " appeared under " + process.info().command()
                        .orElse("the prefix") + " in " + SWITCH_TIMEOUT.toSeconds() + " s");
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
                throw new StartFailure("interrupted");
            }
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Polls the health endpoint until it answers 200.
     *
     * @return milliseconds from spawn to the first 200
     * @throws StartFailure if the process exits first or the timeout passes
     */
    long awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = spawnNanos + timeout.toNanos();
        while (true) {
            if (!process.isAlive()) {
                throw new StartFailure("exited with code " + process.exitValue() + " before it was healthy"
                        + logTail());
            }
            if (ServiceHttp.healthy(baseUrl, healthPath)) {
                return (System.nanoTime() - spawnNanos) / 1_000_000;
            }
            if (System.nanoTime() > deadline) {
                throw new StartFailure("not healthy after " + timeout.toSeconds() + " s (GET " + healthPath
                        + " never answered 200)" + logTail());
            }
            Thread.sleep(50);
        }
    }

    @Override
    public PrometheusText scrape() throws IOException, InterruptedException {
        return ServiceHttp.scrape(baseUrl, metricsPath);
    }

    @Override
    public boolean procCpu() {
        return true;
    }

    @Override
    public OptionalLong cpuMicros() {
        return ProcFs.cpuMicros(pid);
    }

    @Override
    public Map<Long, Long> jitThreadCpuMicros() {
        return ProcFs.jitThreadCpuMicros(pid);
    }

    @Override
    public String deathReason(String when) {
        return "service exited with code " + process.exitValue() + " " + when + logTail();
    }

    /** The service's own process: the JVM or Node.js (behind taskset, and behind the prefix of a service user). */
    long pid() {
        return pid;
    }

    /** The user it runs as, or empty for the runner's own. */
    Optional<ServiceUser> user() {
        return Optional.ofNullable(user);
    }

    /** Its own directory (home and working directory) when it runs as a service user, else null. */
    Path dir() {
        return dir;
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public java.util.Set<String> harnessPaths() {
        return java.util.Set.of(healthPath, metricsPath);
    }

    @Override
    public String baseUrl() {
        return baseUrl;
    }

    /** The cause from the service's log (its first exception, else its last lines) for a failed cell's reason. */
    String logTail() {
        try {
            List<String> lines = Files.readAllLines(log).stream().map(String::strip).filter(l -> !l.isEmpty())
                    .map(l -> l.length() > 240 ? l.substring(0, 240) + "…" : l).toList();
            // The first exception names the cause; a stack trace's tail ("... 19 more") does not.
            for (String line : lines) {
                if (line.contains("Exception") || line.startsWith("Error")) {
                    return "; log " + log.getFileName() + ": " + line;
                }
            }
            List<String> tail = lines.subList(Math.max(0, lines.size() - 2), lines.size());
            return tail.isEmpty() ? "" : "; log " + log.getFileName() + " ends: " + String.join(" | ", tail);
        } catch (IOException e) {
            return "";
        }
    }

    /** SIGTERM, then SIGKILL after {@code grace}: for a JVM that has work to do at exit (writing its AOT cache). */
    void stop(Duration grace) {
        stop((int) Math.max(1, grace.toSeconds()));
    }

    /** SIGTERM, then SIGKILL after 10 s. */
    @Override
    public void close() {
        stop(10);
    }

    private void stop(int graceSeconds) {
        if (user == null) {
            if (process.isAlive()) {
                ChildProcesses.terminate(process, graceSeconds);
            }
            ChildProcesses.unregister(process);
            return;
        }
        // As the user: a runner that is not root may not signal it. Then every process of the user goes.
        try {
            if (process.isAlive()) {
                user.signal(pid, "TERM");
                if (!process.waitFor(graceSeconds, TimeUnit.SECONDS)) {
                    user.signal(pid, "KILL");
                }
            }
            user.stopAll();
            process.waitFor(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            user.stopAll();
        } finally {
            ChildProcesses.unregister(this);
        }
    }

    /** The service did not start or did not become healthy. */
    static final class StartFailure extends RuntimeException {
        StartFailure(String message) {
            super(message);
        }
    }
}
