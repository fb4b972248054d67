package dev.restbench.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One variant as a child process, started with the command benchmarks.json gives it (expanded by the shared
 * LaunchCommand), ready once its health path answers 200. Its output goes to a file: its tail is put in a failure to
 * start, and what it printed during a test in that test's failure (ContractEnvironment).
 */
final class VariantProcess implements AutoCloseable {

    /** Generous: a Spring Boot start took 80-90 s on the loaded 2-core box while other builds ran. */
    static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(180);

    final String variant;
    final URI baseUri;
    private final Process process;
    private final Path log;

    private VariantProcess(String variant, URI baseUri, Process process, Path log) {
        this.variant = variant;
        this.baseUri = baseUri;
        this.process = process;
        this.log = log;
    }

    /** @param env the whole environment the variant needs (its PORT = port) */
    static VariantProcess start(String variant, List<String> command, Map<String, String> env, int port,
                                String healthPath, Path logDir) {
        Path log = logDir.resolve(variant + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().putAll(env);
        Process process;
        try {
            Files.createDirectories(logDir);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
        VariantProcess started = new VariantProcess(variant, URI.create("http://127.0.0.1:" + port), process, log);
        try {
            started.awaitHealthy(healthPath);
        } catch (RuntimeException | Error e) {
            started.close();
            throw e;
        }
        return started;
    }

    private void awaitHealthy(String healthPath) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest health = HttpRequest.newBuilder(baseUri.resolve(healthPath))
                .timeout(Duration.ofSeconds(5)).GET().build();
        long deadline = System.nanoTime() + HEALTH_TIMEOUT.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(variant + " exited with " + process.exitValue()
                        + " before it was healthy; its output:\n" + outputTail());
            }
            try {
                HttpResponse<String> response = client.send(health, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
                last = response.statusCode() + " " + response.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + variant, e);
            }
            sleep(250);
        }
        throw new IllegalStateException(variant + " not healthy at " + baseUri + healthPath + " within "
                + HEALTH_TIMEOUT.toSeconds() + " s (last: " + last + "); its output:\n" + outputTail());
    }

    String outputTail() {
        return outputSince(0);
    }

    /** How many bytes of output there are so far: where a test's share of the output begins. */
    long outputSize() {
        try {
            return Files.size(log);
        } catch (IOException e) {
            return 0;
        }
    }

    /** The last 80 lines of what the variant printed from byte {@code offset} on (from {@link #outputSize}). */
    String outputSince(long offset) {
        try {
            return lastLines(Files.readAllBytes(log), offset, 80);
        } catch (IOException e) {
            return "(cannot read " + log + ": " + e + ")";
        }
    }

    static String lastLines(byte[] output, long offset, int count) {
        int from = (int) Math.min(Math.max(offset, 0), output.length);
        List<String> lines = new String(output, from, output.length - from, StandardCharsets.UTF_8).lines().toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM (graceful shutdown), then SIGKILL for it and anything it started if it does not exit in time. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
        try {
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
