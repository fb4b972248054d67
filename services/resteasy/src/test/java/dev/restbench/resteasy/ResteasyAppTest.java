package dev.restbench.resteasy;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;

import dev.restbench.jersey.JaxRsAppContract;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;

/**
 * The jersey application's tests ({@link JaxRsAppContract}) on RESTEasy and Undertow (which declines the JDK
 * client's {@code Upgrade: h2c}), and what RESTEasy and Undertow do differently at the edges.
 */
class ResteasyAppTest extends JaxRsAppContract<ResteasyApp> {

    ResteasyAppTest() {
        super("resteasy", "WRT", ResteasyApp::start, ResteasyApp::port);
    }

    @Test
    void theUriTagIsTheRouteTemplateAndErrorsAreTagged() throws Exception {
        get("/items/1");
        get("/items/987654321");
        get("/no/such/route");
        send("DELETE", "/items", null);
        String scrape = get("/actuator/prometheus").body();

        assertThat(scrape)
                .contains("exception=\"None\",method=\"GET\",outcome=\"SUCCESS\",status=\"200\",uri=\"/items/{id}\"")
                .contains("exception=\"None\",method=\"GET\",outcome=\"CLIENT_ERROR\",status=\"404\",uri=\"/items/{id}\"")
                .contains("method=\"GET\",outcome=\"CLIENT_ERROR\",status=\"404\",uri=\"NOT_FOUND\"")
                .contains("exception=\"NotAllowedException\",method=\"DELETE\",outcome=\"CLIENT_ERROR\",status=\"405\"")
                .doesNotContain("uri=\"/items/1\"")
                .doesNotContain("uri=\"/no/such/route\"");
    }

    @Test
    void anErrorBeforeTheBodyWasReadKeepsTheConnectionUsable() throws Exception {
        // A 405 and a 413 answered without reading the body, then a GET on the same connection.
        String body = "{\"code\":\"X\",\"name\":\"" + "n".repeat(70_000) + "\"}";
        String requests = "POST /items/1 HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                + "Content-Length: 12\r\n\r\n{\"sku\": \"0\"}"
                + "POST /categories HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body
                + "GET /items/1 HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n";
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.getOutputStream().write(requests.getBytes(US_ASCII));
            String responses = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            // A response follows the previous body directly (no line break after a JSON body).
            assertThat(java.util.regex.Pattern.compile("HTTP/1\\.1 \\d{3} [A-Za-z ]+").matcher(responses).results()
                    .map(java.util.regex.MatchResult::group).toList())
                    .containsExactly("HTTP/1.1 405 Method Not Allowed", "HTTP/1.1 413 Request Entity Too Large",
                            "HTTP/1.1 200 OK");
        }
    }

    @Test
    void anAcceptHeaderRestEasyCannotMatchIsABadRequestProblem() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/items/1"))
                .header("Accept", "text/html;q=abc").build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void aContentTypeWeightRestEasyCannotReadIsABadRequestProblem() throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/categories"))
                .header("Content-Type", "application/json;q=abc")
                .POST(HttpRequest.BodyPublishers.ofString("{\"code\":\"WRT-Q\",\"name\":\"q\"}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @Test
    void aHostThatIsNoUriAuthorityIsABadRequestProblem() throws Exception {
        for (String host : new String[] {"\"", "a=\"b", "Basic !!!", "http://[::1"}) {
            try (Socket socket = new Socket("127.0.0.1", port())) {
                socket.getOutputStream().write(("POST /categories HTTP/1.1\r\nHost: " + host + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
                        .getBytes(US_ASCII));
                String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

                assertThat(response).as(host).startsWith("HTTP/1.1 400 ").contains("application/problem+json");
            }
        }
    }

    @Test
    void anAsteriskTargetIsNoServerError() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.getOutputStream().write(("OPTIONS * HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "GET * HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").getBytes(US_ASCII));
            String responses = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(responses).startsWith("HTTP/1.1 200 ").contains("Allow: ")
                    .contains("HTTP/1.1 400 ").contains("application/problem+json");
        }
    }

    @Test
    void connectIsAMethodNotAllowedProblem() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.getOutputStream().write(("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n"
                    + "Connection: close\r\n\r\n").getBytes(US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 405 ").contains("application/problem+json");
        }
    }

    @Test
    void aHeaderRestEasyCannotParseIsABadRequestProblem() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port())) {
            socket.getOutputStream().write(("POST /categories HTTP/1.1\r\nHost: test\r\nContent-Type: a/b/c;;==\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n{}").getBytes(US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 400 ").contains("application/problem+json");
        }
    }
}
