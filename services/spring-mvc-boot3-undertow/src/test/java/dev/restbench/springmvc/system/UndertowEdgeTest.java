package dev.restbench.springmvc.system;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.springmvc.SpringMvcApplication;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServer;
import org.springframework.boot.web.servlet.context.ServletWebServerApplicationContext;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What Undertow answers at its edge, on the wire (raw requests, so nothing is normalised by a client): each is a
 * problem detail with the status Tomcat gives in spring-mvc-boot3, and the connection stays usable after an error
 * whose body was not read. The API itself is the contract suites' (contract-tests).
 */
@SpringBootTest(classes = SpringMvcApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class UndertowEdgeTest {

    /** A status line; the next response's follows a body directly (no line break between them). */
    private static final Pattern STATUS_LINE = Pattern.compile("HTTP/1\\.1 (\\d{3}) ");
    private static PostgresServer postgres;

    @LocalServerPort
    int port;

    @Autowired
    ServletWebServerApplicationContext context;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate("undertow_edge_template", DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate("undertow_edge_template", "undertow_edge");
        registry.add("spring.datasource.url", () -> url);
        registry.add("spring.datasource.username", postgres::user);
        registry.add("spring.datasource.password", postgres::password);
    }

    @AfterAll
    static void stopDatabase() {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void runsOnUndertow() {
        assertThat(context.getWebServer()).isInstanceOf(UndertowServletWebServer.class);
    }

    @Test
    void answersConnectAndTargetsThatAreNoPathWithA400Problem() throws IOException {
        for (String line : List.of("CONNECT 127.0.0.1:443 HTTP/1.1", "CONNECT /items/1 HTTP/1.1", "OPTIONS * HTTP/1.1")) {
            String response = exchange(line + "\r\nHost: x\r\nConnection: close\r\n\r\n");
            assertThat(statuses(response)).as(line).containsExactly(400);
            assertThat(response).as(line).contains("Content-Type: application/problem+json")
                    .contains("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400}");
        }
    }

    @Test
    void answersAMalformedPercentEscapeWithA400ProblemAndStillDecodesWellFormedOnes() throws IOException {
        String malformed = exchange("GET /items/%zz HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /items?categoryId=%37&size=%31 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(statuses(malformed)).containsExactly(400, 200);
        assertThat(malformed).contains("application/problem+json").contains("\"id\":7");
        assertThat(statuses(exchange("GET /items?page=%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")))
                .containsExactly(400);
    }

    @Test
    void answersTraceAsSpringsMethodNotAllowedAndReadsItsBody() throws IOException {
        String response = exchange("TRACE /items/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                + "GET /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(statuses(response)).containsExactly(405, 200);
        assertThat(response).contains("Allow: ").contains("application/problem+json").doesNotContain("message/http");
    }

    @Test
    void keepsTheConnectionAfterAnErrorAnsweredBeforeTheBodyWasRead() throws IOException {
        String body = "{\"code\":\"x\",\"name\":\"" + "n".repeat(20_000) + "\"}";
        String response = exchange("POST /categories HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body
                + "GET /items/1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        assertThat(statuses(response)).containsExactly(415, 200);
    }

    /** Sends the bytes on one connection and reads until the server closes it. */
    private String exchange(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            byte[] buffer = new byte[8192];
            try {
                for (int n; (n = in.read(buffer)) != -1; ) {
                    received.write(buffer, 0, n);
                }
            } catch (SocketTimeoutException e) {
                // what came so far is the answer
            }
            return received.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static List<Integer> statuses(String response) {
        List<Integer> statuses = new ArrayList<>();
        Matcher matcher = STATUS_LINE.matcher(response);
        while (matcher.find()) {
            statuses.add(Integer.parseInt(matcher.group(1)));
        }
        return statuses;
    }
}
