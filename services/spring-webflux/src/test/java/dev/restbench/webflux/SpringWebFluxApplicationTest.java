package dev.restbench.webflux;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service as a whole on a random port against a real embedded PostgreSQL holding the small dataset, spoken to
 * over raw keep-alive connections: what this stack got wrong before (the contract suites in contract-tests check
 * the whole API against the jar).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class SpringWebFluxApplicationTest {

    private static final String TEMPLATE = "spring_webflux_test_template";
    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)\\s*$");
    private static PostgresServer postgres;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate(TEMPLATE, DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate(TEMPLATE, "spring_webflux_test");
        registry.add("db.url", () -> url);
        registry.add("db.user", postgres::user);
        registry.add("db.password", postgres::password);
    }

    @AfterAll
    static void stopDatabase() {
        if (postgres != null) {
            postgres.close();
        }
    }

    /**
     * Reactor Netty lost the read on a keep-alive connection when a request arrived before the previous one's
     * operations had terminated (reactor/reactor-netty#4361): about one run in two of 300 requests hung.
     * EventLoopAffinityFilter ends every request on its connection's loop; requests that read the database (which
     * complete on r2dbc's loops) and requests that do not, alternating on one connection, must all be answered.
     */
    @Test
    void answersEveryRequestOnOneKeepAliveConnection() throws IOException {
        try (Connection connection = new Connection(port)) {
            for (int i = 0; i < 600; i++) {
                String path = switch (i % 3) {
                    case 0 -> "/items/7";
                    case 1 -> "/actuator/health";
                    default -> "/items?size=0";
                };
                Response response = connection.exchange("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
                assertThat(response.status()).as("request %d, %s", i, path).isEqualTo(i % 3 == 2 ? 400 : 200);
            }
        }
    }

    @Test
    void keepsTheConnectionAfterRefusingABodyItDidNotRead() throws IOException {
        String big = "{\"code\":\"X\",\"name\":\"" + "n".repeat(70 * 1024) + "\"}";
        StringBuilder chunked = new StringBuilder();
        for (int i = 0; i < big.length(); i += 8192) {
            String chunk = big.substring(i, Math.min(big.length(), i + 8192));
            chunked.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        chunked.append("0\r\n\r\n");
        try (Connection connection = new Connection(port)) {
            Response tooLarge = connection.exchange("POST /categories HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: " + big.length() + "\r\n\r\n" + big);
            assertThat(tooLarge.status()).isEqualTo(413);
            assertThat(tooLarge.head()).containsIgnoringCase("content-type: application/problem+json");
            assertThat(connection.exchange("GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200);
            Response chunkedTooLarge = connection.exchange("POST /categories HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked);
            assertThat(chunkedTooLarge.status()).isEqualTo(413);
            assertThat(connection.exchange("TRACE /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 12\r\n\r\n"
                    + "{\"sku\": \"0\"}").status()).isEqualTo(405);
            assertThat(connection.exchange("GET /items/7 HTTP/1.1\r\nHost: x\r\n\r\n").status()).isEqualTo(200);
        }
    }

    @Test
    void answersWhatWebFluxRefusesAsProblemDetails() throws IOException {
        try (Connection connection = new Connection(port)) {
            Response connect = connection.exchange("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n");
            assertThat(connect.status()).isEqualTo(400);
            Response wrongMethod = connection.exchange("DELETE /items HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(wrongMethod.status()).isEqualTo(405);
            assertThat(wrongMethod.head()).containsIgnoringCase("allow: ");
            Response unknown = connection.exchange("GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(unknown.status()).isEqualTo(404);
            assertThat(unknown.body()).contains("\"type\":\"about:blank\"");
            Response malformed = connection.exchange("POST /categories HTTP/1.1\r\nHost: x\r\n"
                    + "Content-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"code\": x}");
            assertThat(malformed.status()).isEqualTo(400);
            assertThat(malformed.head()).containsIgnoringCase("content-type: application/problem+json");
        }
    }

    record Response(int status, String head, String body) {
    }

    /** One keep-alive HTTP/1.1 connection; responses are framed by Content-Length (this API never chunks). */
    private static final class Connection implements AutoCloseable {

        private final Socket socket;
        private final OutputStream out;
        private final InputStream in;

        Connection(int port) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            out = socket.getOutputStream();
            in = socket.getInputStream();
        }

        Response exchange(String request) throws IOException {
            out.write(request.getBytes(StandardCharsets.UTF_8));
            out.flush();
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed after " + head);
                }
                head.write(b);
            }
            String headText = head.toString(StandardCharsets.ISO_8859_1);
            Matcher length = CONTENT_LENGTH.matcher(headText);
            byte[] body = length.find() ? in.readNBytes(Integer.parseInt(length.group(1))) : new byte[0];
            List<String> lines = new ArrayList<>(List.of(headText.split("\r\n")));
            return new Response(Integer.parseInt(lines.get(0).split(" ")[1]), headText,
                    new String(body, StandardCharsets.UTF_8));
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
