package dev.restbench.runner.run;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** One running instance of a variant: started pinned to its CPU set, probed for health, scraped, stopped. */
final class ServiceProcess implements ServiceUnderTest, AutoCloseable {

    private final Process process;
    private final long spawnNanos;
    private final String baseUrl;
    private final String healthPath;
    private final String metricsPath;
    private final Path log;

    private ServiceProcess(Process process, long spawnNanos, String baseUrl, String healthPath, String metricsPath,
                           Path log) {
        this.process = process;
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
        List<String> argv = new ArrayList<>();
        if (launch.cpuSet() != null) {
            // taskset execs the command: the pid we get is the JVM's own.
            argv.addAll(List.of("taskset", "-c", launch.cpuSet()));
        }
        argv.addAll(launch.command());
        Files.createDirectories(log.getParent());
        ProcessBuilder builder = new ProcessBuilder(argv)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(launch.env());
        long spawn = System.nanoTime();
        Process process = builder.start();
        ChildProcesses.register(process);
        return new ServiceProcess(process, spawn, "http://127.0.0.1:" + launch.port(), launch.healthPath(),
                launch.metricsPath(), log);
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
        return ProcFs.cpuMicros(process.pid());
    }

    @Override
    public Map<Long, Long> jitThreadCpuMicros() {
        return ProcFs.jitThreadCpuMicros(process.pid());
    }

    @Override
    public String deathReason(String when) {
        return "service exited with code " + process.exitValue() + " " + when + logTail();
    }

    long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
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
        if (process.isAlive()) {
            ChildProcesses.terminate(process, (int) Math.max(1, grace.toSeconds()));
        }
        ChildProcesses.unregister(process);
    }

    /** SIGTERM, then SIGKILL after 10 s. */
    @Override
    public void close() {
        if (process.isAlive()) {
            ChildProcesses.terminate(process, 10);
        }
        ChildProcesses.unregister(process);
    }

    /** The service did not start or did not become healthy. */
    static final class StartFailure extends RuntimeException {
        StartFailure(String message) {
            super(message);
        }
    }
}
