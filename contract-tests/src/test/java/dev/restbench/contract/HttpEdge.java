package dev.restbench.contract;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Malformed HTTP/1.1 framing, generated as framing × method × body size, written to the socket as bytes, with a
 * time bound per connection so that a server that holds the connection fails fast instead of at its idle timeout.
 * What each server answered (status lines, whether and when it closed) is kept, and written by {@link #report} to
 * {@code target/contract-logs/http-edge.csv} and a table {@code http-edge.md}, the source of
 * docs/results/2026-11-27-http-edge.md: the numbers there are measured, not typed.
 *
 * <p>The rule for every case: no 5xx, and within the bound either a final 4xx or the connection closed (a server
 * may answer a GET before reading its broken body, but must then close: the rest of the body is still on the
 * connection). Where the request carries both Content-Length and Transfer-Encoding, RFC 9112 §6.1 says the server
 * MUST close the connection after its answer, whatever it answered, so there the close is required, with one
 * answer only.
 */
final class HttpEdge {

    /**
     * Per connection: a server that has neither refused nor closed by then is holding it. Far above any answer seen
     * (the slowest, a warm Spring service on the loaded 2-core box, ~4 s), far below the servers' 60 s idle timeout.
     */
    static final Duration BOUND = Duration.ofSeconds(10);
    /** MAX_BODY_BYTES of every variant is 64 KiB: bodies below and announced sizes above it. */
    private static final int SMALL = 16;
    private static final int LARGE = 48 * 1024;
    private static final long JUST_OVER = 70 * 1024;
    private static final long HUGE = 1L << 30;

    /** One generated case; {@code mustClose}: a 4xx alone is not enough, the connection must be closed too. */
    record Case(String framing, String method, String size, byte[] wire, boolean mustClose) {
        @Override
        public String toString() {
            return framing + (method.isEmpty() ? "" : " · " + method + " · " + size);
        }
    }

    /** What came back on one connection. {@code answerMillis}: first final status; {@code closeMillis}: the close. */
    record Observation(String variant, Case edgeCase, List<Integer> statuses, boolean closed, long answerMillis,
                       long closeMillis, String head) {

        Integer finalStatus() {
            return statuses.stream().filter(s -> s >= 200).findFirst().orElse(null);
        }

        /** Empty when the case passed, else why not. */
        String failure() {
            if (statuses.stream().anyMatch(s -> s >= 500)) {
                return "a 5xx";
            }
            Integer status = finalStatus();
            if (edgeCase.mustClose()) {
                // Elsewhere a second answer is the server refusing the rest of a broken body it had not read
                // before answering (nothing after it can form a request); here it would be the smuggled request.
                if (statuses.stream().filter(s -> s >= 200).count() > 1) {
                    return "answered more than once: the rest of the body was read as another request";
                }
                return closed ? "" : "answered " + (status == null ? "nothing" : status) + " but kept the connection"
                        + " open for " + BOUND.toSeconds() + " s (RFC 9112 §6.1: close after answering)";
            }
            if (status != null && status >= 400 && status < 500 || closed) {
                return "";
            }
            return status == null ? "no answer and no close within " + BOUND.toSeconds() + " s (a hang)"
                    : "answered " + status + " and kept the connection open with the malformed rest unread";
        }

        /** The outcome in a word, as the table shows it: {@code 400}, {@code 100→413}, {@code 400+close}, {@code close}. */
        String outcome() {
            String answer = statuses.stream().map(String::valueOf).collect(Collectors.joining("→"));
            if (answer.isEmpty()) {
                return closed ? "close" : "hang";
            }
            return closed ? answer + "+close" : answer;
        }

        /** Until what decided the case: the close where it was needed or came, else the answer. */
        long millis() {
            return closed ? closeMillis : answerMillis;
        }
    }

    private static final List<Observation> OBSERVED = new ArrayList<>();

    private HttpEdge() {
    }

    /** The generated cases: the same for every variant. */
    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // A well-formed first chunk of the body's size, then a chunk-size line that is not one.
        Map<String, String> badChunkSizes = new LinkedHashMap<>();
        badChunkSizes.put("chunk size not hexadecimal", "zz");
        badChunkSizes.put("chunk size beyond 64 bits", "10000000000000000");
        badChunkSizes.put("chunk size negative", "-2");
        for (String method : List.of("GET", "POST", "PUT", "DELETE")) {
            for (int size : List.of(SMALL, LARGE)) {
                String label = bytes(size);
                for (var bad : badChunkSizes.entrySet()) {
                    cases.add(new Case(bad.getKey(), method, label, concat(head(method,
                            "Transfer-Encoding: chunked\r\n"), chunked(size, bad.getValue() + "\r\nxx\r\n0\r\n\r\n")),
                            false));
                }
                // Chunked is the body; the Content-Length (shorter) would leave the rest as a smuggled request.
                cases.add(new Case("Content-Length and chunked", method, label, concat(head(method,
                        "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n"), chunked(size, "0\r\n\r\n")), true));
                cases.add(new Case("two different Content-Lengths", method, label, concat(head(method,
                        "Content-Length: " + size + "\r\nContent-Length: " + (size + 1) + "\r\n"), pad(size)), false));
            }
            // Only the headers: the server knows from them alone that it will refuse the body, and need not wait.
            for (long announced : List.of(JUST_OVER, HUGE)) {
                String label = bytes(announced) + " announced";
                cases.add(new Case("body over the limit by Content-Length", method, label,
                        head(method, "Content-Length: " + announced + "\r\n").getBytes(StandardCharsets.ISO_8859_1),
                        false));
                cases.add(new Case("body over the limit, Expect: 100-continue", method, label,
                        head(method, "Content-Length: " + announced + "\r\nExpect: 100-continue\r\n")
                                .getBytes(StandardCharsets.ISO_8859_1), false));
            }
        }
        cases.add(new Case("TLS ClientHello, then CRLF", "", "", concat(clientHello(), "\r\n"), false));
        cases.add(new Case("TLS ClientHello, then a blank line", "", "", concat(clientHello(), "\r\n\r\n"), false));
        cases.add(new Case("HTTP/2 preface", "", "", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1), false));
        // The client preface in full: the magic, then an empty SETTINGS frame (RFC 9113 §3.4).
        cases.add(new Case("HTTP/2 preface and SETTINGS", "", "", concat("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n",
                new byte[]{0, 0, 0, 4, 0, 0, 0, 0, 0}), false));
        return cases;
    }

    /**
     * Each method on a path where it is defined: the body is no JSON, so where a framing is (wrongly) accepted a
     * POST or PUT ends in a 400 of the application, never in a write, and GET and DELETE touch no seeded row.
     */
    private static String head(String method, String framingHeaders) {
        String path = switch (method) {
            case "GET" -> "/items/1";
            case "POST" -> "/categories";
            case "PUT" -> "/categories/987654321";
            default -> "/items/987654321";
        };
        return method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + framingHeaders + "\r\n";
    }

    /** A well-formed chunk of {@code size} bytes, then {@code rest}. */
    private static byte[] chunked(int size, String rest) {
        return concat(Integer.toHexString(size) + "\r\n", pad(size), "\r\n" + rest);
    }

    private static byte[] pad(int size) {
        return "x".repeat(size).getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String bytes(long size) {
        return size >= 1L << 30 ? size / (1L << 30) + " GiB" : size >= 1024 ? size / 1024 + " KiB" : size + " B";
    }

    /** The start of a TLS 1.2 ClientHello record: content type 22, version 3.1, a length, handshake type 1. */
    private static byte[] clientHello() {
        byte[] hello = new byte[64];
        byte[] start = {0x16, 0x03, 0x01, 0x00, (byte) 0xa5, 0x01, 0x00, 0x00, (byte) 0xa1, 0x03, 0x03};
        System.arraycopy(start, 0, hello, 0, start.length);
        for (int i = start.length; i < hello.length; i++) {
            hello[i] = (byte) (i * 37 + 11); // a fixed "random", so a run is repeatable
        }
        return hello;
    }

    private static byte[] concat(Object... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Object part : parts) {
            out.writeBytes(part instanceof byte[] b ? b : ((String) part).getBytes(StandardCharsets.ISO_8859_1));
        }
        return out.toByteArray();
    }

    /**
     * Writes the case on a connection of its own and reads until the server closes it, or (when a 4xx is enough)
     * until a final response's header block is complete, or the bound passes. A reset counts as a close.
     */
    static Observation exchange(String variant, URI base, Case edgeCase) {
        long started = System.nanoTime();
        long deadline = started + BOUND.toNanos();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        boolean closed = false;
        long answerMillis = -1;
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(100);
            try {
                OutputStream out = socket.getOutputStream();
                out.write(edgeCase.wire());
                out.flush();
            } catch (SocketException refusedMidway) {
                // the server stopped reading and closed; what it said before is still to be read
            }
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            while (System.nanoTime() < deadline) {
                int n;
                try {
                    n = in.read(buffer);
                } catch (SocketTimeoutException quiet) {
                    continue;
                } catch (SocketException reset) {
                    n = -1;
                }
                if (n < 0) {
                    closed = true;
                    break;
                }
                received.write(buffer, 0, n);
                String text = received.toString(StandardCharsets.ISO_8859_1);
                int decided = finalStatusWithHead(text);
                if (answerMillis < 0 && decided > 0) {
                    answerMillis = millisSince(started);
                }
                // A refusal ends the case; after any other answer the unread rest of a malformed body is still on
                // the connection, and only a close shows that the server will not read it as the next request.
                if (decided >= 400 && decided < 500 && !edgeCase.mustClose()) {
                    break;
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(variant + ": " + edgeCase + ": cannot connect: " + e, e);
        }
        String text = received.toString(StandardCharsets.ISO_8859_1);
        Observation observation = new Observation(variant, edgeCase, Http.statusLines(text), closed, answerMillis,
                closed ? millisSince(started) : -1, firstLines(text));
        synchronized (OBSERVED) {
            OBSERVED.add(observation);
        }
        return observation;
    }

    /** The first status of 200 or above whose header block has ended (what the server decided), else -1. */
    private static int finalStatusWithHead(String text) {
        for (int at = 0; (at = text.indexOf("HTTP/1.", at)) >= 0; at++) {
            int end = text.indexOf("\r\n\r\n", at);
            if (end < 0) {
                return -1;
            }
            List<Integer> status = Http.statusLines(text.substring(at, end + 2));
            if (!status.isEmpty() && status.get(0) >= 200) {
                return status.get(0);
            }
        }
        return -1;
    }

    private static long millisSince(long started) {
        return Duration.ofNanos(System.nanoTime() - started).toMillis();
    }

    private static String firstLines(String text) {
        String head = text.lines().limit(3).collect(Collectors.joining(" | "));
        return head.length() > 200 ? head.substring(0, 200) + "…" : head;
    }

    private static String quoted(String field) {
        return '"' + field.replace("\"", "\"\"") + '"';
    }

    /**
     * Writes every observation of this run as csv, and a table of variant × framing whose cell is each distinct
     * outcome over the methods and body sizes with the slowest time to it.
     */
    static void report(Path dir) {
        List<Observation> observed;
        synchronized (OBSERVED) {
            observed = List.copyOf(OBSERVED);
        }
        if (observed.isEmpty()) {
            return;
        }
        StringBuilder csv = new StringBuilder("variant,framing,method,size,statuses,closed,answer_ms,close_ms,"
                + "failure\n");
        for (Observation o : observed) {
            csv.append(String.join(",", quoted(o.variant()), quoted(o.edgeCase().framing()),
                    quoted(o.edgeCase().method()), quoted(o.edgeCase().size()),
                    quoted(o.statuses().stream().map(String::valueOf).collect(Collectors.joining(" "))),
                    String.valueOf(o.closed()), String.valueOf(o.answerMillis()), String.valueOf(o.closeMillis()),
                    quoted(o.failure()))).append('\n');
        }
        Set<String> variants = new LinkedHashSet<>();
        Set<String> framings = new LinkedHashSet<>();
        Map<String, Map<String, Long>> cells = new TreeMap<>(); // "variant\tframing" → outcome → slowest ms
        Map<String, Boolean> failed = new TreeMap<>();
        for (Observation o : observed) {
            variants.add(o.variant());
            framings.add(o.edgeCase().framing());
            String key = o.variant() + "\t" + o.edgeCase().framing();
            cells.computeIfAbsent(key, k -> new TreeMap<>()).merge(o.outcome(), o.millis(), Math::max);
            failed.merge(key, !o.failure().isEmpty(), Boolean::logicalOr);
        }
        StringBuilder table = new StringBuilder("| variant | " + String.join(" | ", framings) + " |\n|---|"
                + "---|".repeat(framings.size()) + "\n");
        for (String variant : variants) {
            table.append("| ").append(variant).append(" |");
            for (String framing : framings) {
                String key = variant + "\t" + framing;
                String cell = cells.getOrDefault(key, Map.of()).entrySet().stream()
                        .map(e -> e.getKey() + " " + e.getValue() + " ms").collect(Collectors.joining(", "));
                table.append(' ').append(failed.getOrDefault(key, false) ? "**FAIL** " + cell : cell).append(" |");
            }
            table.append('\n');
        }
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("http-edge.csv"), csv);
            Files.writeString(dir.resolve("http-edge.md"), table);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
