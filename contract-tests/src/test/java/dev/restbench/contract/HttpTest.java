package dev.restbench.contract;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The suites' client against a raw socket server: a keep-alive connection the server closes unanswered is tried once
 * more on a new connection (what an HTTP client is allowed to meet), and a server that closes every connection
 * unanswered still fails the request.
 */
class HttpTest {

    private static final String OK = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}";

    /**
     * Serves connections one after the other: on connection {@code k} (from 0) it answers {@code answers[k]} requests,
     * then reads one more request and closes without a byte.
     */
    private static Thread serve(ServerSocket server, int... answers) {
        Thread thread = new Thread(() -> {
            for (int answered : answers) {
                try (Socket socket = server.accept()) {
                    InputStream in = socket.getInputStream();
                    OutputStream out = socket.getOutputStream();
                    for (int i = 0; i < answered; i++) {
                        readRequest(in);
                        out.write(OK.getBytes(StandardCharsets.ISO_8859_1));
                        out.flush();
                    }
                    readRequest(in);
                } catch (IOException closed) {
                    return;
                }
            }
        });
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Reads up to the end of the headers and a Content-Length body. */
    private static void readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed");
            }
            head.append((char) b);
        }
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase().startsWith("content-length:")) {
                in.readNBytes(Integer.parseInt(line.substring(15).trim()));
            }
        }
    }

    @Test
    void aKeepAliveConnectionClosedUnansweredIsTriedOnceMoreOnANewOne() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            // First connection: one answer, then the PATCH is dropped; second connection answers it.
            serve(server, 1, 1);
            Http http = new Http(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"));
            assertThat(http.get("/first").status()).isEqualTo(200);
            assertThat(http.request("PATCH", "/items/1").json("{}").send().status()).isEqualTo(200);
        }
    }

    @Test
    void aServerThatClosesEveryConnectionUnansweredFailsTheRequest() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            serve(server, 0, 0, 0);
            Http http = new Http(URI.create("http://127.0.0.1:" + server.getLocalPort() + "/"));
            assertThatThrownBy(() -> http.request("PATCH", "/items/1").json("{}").send())
                    .isInstanceOf(UncheckedIOException.class).hasMessageContaining("received no bytes");
        }
    }
}
