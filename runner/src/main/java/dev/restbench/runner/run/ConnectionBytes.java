package dev.restbench.runner.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes on each of the load generator's connections to the service, from the kernel's TCP counters as iproute2's
 * {@code ss} reports them: {@code bytes_received} on the client's side is what the service sent (responses, headers
 * included), {@code bytes_acked} what the client sent. Only the load generator's own sockets (its pid), so the
 * runner's scrapes and health checks, on other connections, are not counted.
 *
 * <p>A connection closed between two readings takes its bytes since the first with it: the load keeps its
 * connections open (keep-alive, shared by the virtual users), so a window loses at most what a rare reconnect sent.
 */
final class ConnectionBytes {

    /** One connection's totals since it opened. */
    record Counts(long sent, long received) {
    }

    private static final Pattern PID = Pattern.compile("pid=(\\d+),");
    private static final Pattern RECEIVED = Pattern.compile("\\bbytes_received:(\\d+)");
    private static final Pattern ACKED = Pattern.compile("\\bbytes_acked:(\\d+)");
    private static final long TIMEOUT_S = 5;

    private ConnectionBytes() {
    }

    /**
     * The client's connections to the service's port, by their local address:port; null when {@code ss} is missing,
     * fails or is slow (the bytes metric is then absent for the window, never 0).
     */
    static Map<String, Counts> read(int servicePort, long clientPid) {
        List<String> argv = List.of("ss", "-tinpH", "state", "established", "( dport = :" + servicePort + " )");
        Path out = null;
        try {
            // Into a file, not a pipe: 200 connections print more than a pipe holds, and the timeout must hold.
            out = Files.createTempFile("restbench-ss", ".txt");
            Process ss = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!ss.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                ss.destroyForcibly();
                return null;
            }
            return ss.exitValue() == 0 ? parse(Files.readString(out, StandardCharsets.UTF_8), clientPid) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // a leftover temporary file
                }
            }
        }
    }

    /**
     * {@code ss -tinpH state established} output: per socket a line "Recv-Q Send-Q local peer users:((…pid=N…))",
     * then an indented line of TCP info with the byte counters.
     */
    static Map<String, Counts> parse(String output, long clientPid) {
        Map<String, Counts> connections = new LinkedHashMap<>();
        String local = null;
        for (String line : output.split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            if (!Character.isWhitespace(line.charAt(0))) {
                String[] fields = line.trim().split("\\s+");
                local = fields.length >= 4 && ownedBy(line, clientPid) ? fields[2] : null;
            } else if (local != null) {
                Matcher received = RECEIVED.matcher(line);
                Matcher acked = ACKED.matcher(line);
                connections.put(local, new Counts(acked.find() ? Long.parseLong(acked.group(1)) : 0,
                        received.find() ? Long.parseLong(received.group(1)) : 0));
                local = null;
            }
        }
        return connections;
    }

    /**
     * What the service sent on the client's connections from {@code before} to {@code after}: a connection opened in
     * between counts from zero. Empty when neither reading saw a connection of the client (ss without the sockets'
     * owners, or no connection open): unknown, not 0.
     */
    static java.util.OptionalLong receivedBetween(Map<String, Counts> before, Map<String, Counts> after) {
        if (before.isEmpty() && after.isEmpty()) {
            return java.util.OptionalLong.empty();
        }
        long sum = 0;
        for (Map.Entry<String, Counts> connection : after.entrySet()) {
            Counts earlier = before.get(connection.getKey());
            long from = earlier == null || earlier.received() > connection.getValue().received() ? 0
                    : earlier.received();
            sum += connection.getValue().received() - from;
        }
        return java.util.OptionalLong.of(sum);
    }

    private static boolean ownedBy(String line, long pid) {
        Matcher owner = PID.matcher(line);
        while (owner.find()) {
            if (Long.parseLong(owner.group(1)) == pid) {
                return true;
            }
        }
        return false;
    }
}
