package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small HTTP client for the suites. Every request has a timeout so that a server that hangs (for example while
 * swallowing an oversized body) fails the test instead of blocking the build; it is a hang guard, not a latency
 * assertion.
 */
final class Http {

    static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration HANG_GUARD = Duration.ofSeconds(60);
    private static final HttpClient CLIENT = freshClient();

    private final URI base;

    /** A client with an empty connection pool. */
    private static HttpClient freshClient() {
        return HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    Http(URI base) {
        this.base = base;
    }

    Request request(String method, String path) {
        return new Request(method, path);
    }

    Response get(String path) {
        return request("GET", path).send();
    }

    Response delete(String path) {
        return request("DELETE", path).send();
    }

    Response post(String path, Object body) {
        return request("POST", path).json(body).send();
    }

    Response put(String path, Object body) {
        return request("PUT", path).json(body).send();
    }

    /**
     * Bytes written to the server as they are, on a connection of their own: what an HTTP client library refuses to
     * send (CONNECT, a TRACE with a body, pipelined requests). {@code wire} may hold several requests; the last should
     * say {@code Connection: close}. The answer is every byte read until the server closes the connection or stays
     * silent for 2 s, as the body of a response whose status is the highest status line in it (so "no 5xx" covers
     * all of them).
     */
    Response raw(String name, String wire) {
        try (Socket socket = new Socket(base.getHost(), base.getPort())) {
            socket.setSoTimeout(2_000);
            OutputStream out = socket.getOutputStream();
            out.write(wire.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            long deadline = System.nanoTime() + HANG_GUARD.toNanos();
            byte[] buffer = new byte[8192];
            try {
                for (int n; System.nanoTime() < deadline && (n = in.read(buffer)) >= 0; ) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException silent) {
                // the server keeps the connection open: everything it had to say has been read
            } catch (SocketException reset) {
                // closed by the server while we were writing or reading: what was read is the answer
            }
            String text = received.toString(StandardCharsets.ISO_8859_1);
            int highest = statusLines(text).stream().mapToInt(Integer::intValue).max()
                    .orElseThrow(() -> new AssertionError(name + ": no HTTP response at all: '" + text + "'"));
            return new Response("RAW", name, highest, Map.of(), text);
        } catch (IOException e) {
            throw new UncheckedIOException(name + " failed: " + e, e);
        }
    }

    /** The statuses of the HTTP/1.x status lines in {@code raw}, in order. */
    static List<Integer> statusLines(String raw) {
        Matcher matcher = Pattern.compile("HTTP/1\\.[01] (\\d{3}) ").matcher(raw);
        List<Integer> statuses = new ArrayList<>();
        while (matcher.find()) {
            statuses.add(Integer.parseInt(matcher.group(1)));
        }
        return statuses;
    }

    final class Request {
        private final String method;
        private final String path;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private byte[] body;
        private boolean chunked;
        private boolean once;

        private Request(String method, String path) {
            this.method = method;
            this.path = path;
            headers.put("Accept", "application/json");
        }

        Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        Request accept(String value) {
            return header("Accept", value);
        }

        /** A JSON body: a String is sent verbatim (so malformed JSON can be sent), anything else is serialised. */
        Request json(Object value) {
            try {
                String text = value instanceof String s ? s : JSON.writeValueAsString(value);
                return body(text.getBytes(StandardCharsets.UTF_8), "application/json");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        Request body(byte[] bytes, String contentType) {
            this.body = bytes;
            headers.put("Content-Type", contentType);
            return this;
        }

        /** Sends the body without Content-Length (chunked), so the server cannot refuse it from the header alone. */
        Request chunked() {
            this.chunked = true;
            return this;
        }

        /** No second try when the connection closes unanswered: the test sees every lost answer. */
        Request once() {
            this.once = true;
            return this;
        }

        Response send() {
            HttpRequest.BodyPublisher publisher;
            if (body == null) {
                publisher = HttpRequest.BodyPublishers.noBody();
            } else if (chunked) {
                byte[] bytes = body;
                publisher = HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(bytes));
            } else {
                publisher = HttpRequest.BodyPublishers.ofByteArray(body);
            }
            HttpRequest.Builder builder = HttpRequest.newBuilder(base.resolve(path))
                    .timeout(HANG_GUARD)
                    .method(method, publisher);
            headers.forEach(builder::header);
            HttpRequest request = builder.build();
            try {
                HttpResponse<String> response;
                try {
                    response = CLIENT.send(request, HttpResponse.BodyHandlers.ofString());
                } catch (IOException e) {
                    if (once || !String.valueOf(e.getMessage()).contains("received no bytes")) {
                        throw e;
                    }
                    // A server may close an idle keep-alive connection at any time (RFC 9112 §9.6), and the pool can
                    // hand it out as it closes; the client retries only idempotent methods itself. Once more on a
                    // connection of its own: a server that closes that one unanswered too still fails the test.
                    response = freshClient().send(request, HttpResponse.BodyHandlers.ofString());
                }
                return new Response(method, path, response.statusCode(), response.headers().map(), response.body());
            } catch (HttpTimeoutException e) {
                throw new AssertionError(method + " " + path + ": no response within " + HANG_GUARD.toSeconds()
                        + " s (the server hangs)", e);
            } catch (IOException e) {
                throw new UncheckedIOException(method + " " + path + " failed: " + e, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    record Response(String method, String path, int status, Map<String, List<String>> headers,
                    String body) {

        Optional<String> header(String name) {
            return headers.entrySet().stream()
                    .filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream())
                    .findFirst();
        }

        /** The media type without parameters, lower case; empty when there is no Content-Type. */
        String mediaType() {
            return header("Content-Type").map(v -> v.split(";")[0].trim().toLowerCase()).orElse("");
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON: " + this, e);
            }
        }

        @Override
        public String toString() {
            String shown = body.length() > 2000 ? body.substring(0, 2000) + "…" : body;
            return method + " " + path + " → " + status + " " + header("Content-Type").orElse("(no content type)")
                    + " " + shown;
        }
    }
}
