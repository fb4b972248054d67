package dev.restbench.resteasy;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.support.FaultInjection;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The service started in-process against a real (embedded) PostgreSQL holding the small dataset. */
class ResteasyAppTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** The JDK client's defaults on purpose: it offers {@code Upgrade: h2c} on every request (Undertow declines it). */
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private static PostgresServer postgres;
    private static ResteasyApp app;
    private static String base;

    @BeforeAll
    static void start() {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate("resteasy_test_template", DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate("resteasy_test_template", "resteasy_test");
        app = ResteasyApp.start(config(url), new FaultInjection(0));
        base = "http://127.0.0.1:" + app.port();
    }

    @AfterAll
    static void stop() {
        if (app != null) {
            app.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @Test
    void healthIsUpWhenTheDatabaseAnswers() throws Exception {
        HttpResponse<String> response = get("/actuator/health");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(response.body()).path("status").asText()).isEqualTo("UP");
    }

    @Test
    void readsAnItemWithItsCategoryInline() throws Exception {
        HttpResponse<String> response = get("/items/1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode item = JSON.readTree(response.body());
        assertThat(item.path("id").asLong()).isEqualTo(1);
        assertThat(item.path("sku").asText()).isEqualTo("SKU-0000001");
        assertThat(item.path("category").path("id").asLong()).isEqualTo(1);
        assertThat(item.path("category").path("code").asText()).isEqualTo("CAT-00001");
        assertThat(item.has("description")).isTrue();
    }

    @Test
    void pagesItemsOfACategory() throws Exception {
        HttpResponse<String> response = get("/categories/3/items?page=1&size=5");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode page = JSON.readTree(response.body());
        // SMALL: 500 items over 20 categories, item j in category 1 + (j-1) % 20 → 25 items in category 3.
        assertThat(page.path("totalElements").asLong()).isEqualTo(25);
        assertThat(page.path("totalPages").asLong()).isEqualTo(5);
        assertThat(page.path("content")).hasSize(5);
        assertThat(page.path("content").get(0).path("id").asLong()).isEqualTo(103);
        assertThat(page.path("content").get(0).path("category").path("id").asLong()).isEqualTo(3);
    }

    @Test
    void aNonNumericIdIsABadRequestProblem() throws Exception {
        HttpResponse<String> response = get("/items/abc");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = JSON.readTree(response.body());
        assertThat(problem.path("status").asInt()).isEqualTo(400);
        assertThat(problem.path("title").asText()).isEqualTo("Bad Request");
        assertThat(problem.path("instance").asText()).isEqualTo("/items/abc");
        assertThat(problem.path("errors").get(0).path("field").asText()).isEqualTo("id");
    }

    @Test
    void aMalformedRequestUriIsABadRequestNotAServerError() throws Exception {
        // Raw HTTP: java.net.URI (and so HttpClient) refuses to even build this URI.
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.getOutputStream().write(
                    "GET /items/%zz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".getBytes(US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 400 ").contains("application/problem+json");
        }
    }

    @Test
    void invalidFieldsAreAllListed() throws Exception {
        HttpResponse<String> response = send("POST", "/items", "{\"sku\":\" \",\"price\":1.234,\"stock\":-1}");

        assertThat(response.statusCode()).isEqualTo(400);
        JsonNode errors = JSON.readTree(response.body()).path("errors");
        assertThat(errors.findValuesAsText("field"))
                .containsExactlyInAnyOrder("sku", "name", "price", "stock", "categoryId");
    }

    @Test
    void aNulCharacterIsAValidationErrorNotADatabaseFailure() throws Exception {
        HttpResponse<String> response = send("POST", "/items",
                "{\"sku\":\"WRT-NUL\",\"name\":\"a\\u0000b\",\"price\":1,\"stock\":1,\"categoryId\":1}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("errors").findValuesAsText("field")).containsExactly("name");
    }

    @Test
    void writesRoundTripAndConflictsComeFromTheDatabase() throws Exception {
        String body = "{\"sku\":\"WRT-1\",\"name\":\"Test\",\"price\":12.5,\"stock\":3,\"categoryId\":2}";
        HttpResponse<String> created = send("POST", "/items", body);
        assertThat(created.statusCode()).isEqualTo(201);
        long id = JSON.readTree(created.body()).path("id").asLong();
        assertThat(created.headers().firstValue("Location")).hasValue("/items/" + id);
        assertThat(JSON.readTree(created.body()).path("category").path("id").asLong()).isEqualTo(2);

        assertThat(send("POST", "/items", body).statusCode()).isEqualTo(409);
        HttpResponse<String> unknownCategory = send("PUT", "/items/" + id, body.replace("\"categoryId\":2",
                "\"categoryId\":999999"));
        assertThat(unknownCategory.statusCode()).isEqualTo(400);
        assertThat(unknownCategory.body()).contains("\"field\":\"categoryId\"");

        HttpResponse<String> updated = send("PUT", "/items/" + id, body.replace("\"stock\":3", "\"stock\":7"));
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(JSON.readTree(updated.body()).path("stock").asInt()).isEqualTo(7);

        assertThat(send("DELETE", "/categories/2", null).statusCode()).isEqualTo(409);
        assertThat(send("DELETE", "/items/" + id, null).statusCode()).isEqualTo(204);
        assertThat(get("/items/" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void exposesTheSharedMeterNames() throws Exception {
        get("/items/1");
        HttpResponse<String> response = get("/actuator/prometheus");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body())
                .contains("http_server_requests_seconds_bucket{")
                .contains("uri=\"/items/{id}\"")
                .contains("hikaricp_connections_active{")
                .contains("hikaricp_connections_max{")
                .contains("jvm_memory_used_bytes{")
                .contains("jvm_gc_memory_allocated_bytes_total")
                .contains("jvm_threads_live_threads")
                .contains("jvm_classes_loaded_classes")
                .contains("process_cpu_usage")
                .contains("process_cpu_time_ns_total")
                .contains("process_uptime_seconds")
                .contains("application_ready_time_seconds");
        assertThat(sampleValue(response.body(), "jvm_allocation_bytes_total")).isPositive();
    }

    /** The drill's handler wraps the whole request handling and must hand requests and responses through intact. */
    @Test
    void servesTheSameResponsesWithTheFaultDrillEnabled() throws Exception {
        String url = postgres.createDatabaseFromTemplate("resteasy_test_template", "resteasy_fault");
        try (ResteasyApp drilled = ResteasyApp.start(config(url), new FaultInjection(50))) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + drilled.port() + "/categories/3")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).path("id").asLong()).isEqualTo(3);
        }
    }

    @Test
    void refusesToStartOnADatabaseWithoutTheSchema() throws Exception {
        try (Connection admin = postgres.connect("postgres"); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS resteasy_empty");
            statement.execute("CREATE DATABASE resteasy_empty");
        }

        assertThatThrownBy(() -> ResteasyApp.start(config(postgres.jdbcUrl("resteasy_empty")), new FaultInjection(0)))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("does not hold the bench-schema migrations");
    }

    @Test
    void refusesToStartWhenTheDatabaseIsUnreachable() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        String url = "jdbc:postgresql://127.0.0.1:" + closedPort + "/bench";

        assertThatThrownBy(() -> ResteasyApp.start(config(url), new FaultInjection(0)))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("cannot connect to PostgreSQL at " + url);
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
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
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
            try (Socket socket = new Socket("127.0.0.1", app.port())) {
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
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.getOutputStream().write(("OPTIONS * HTTP/1.1\r\nHost: test\r\n\r\n"
                    + "GET * HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n").getBytes(US_ASCII));
            String responses = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(responses).startsWith("HTTP/1.1 200 ").contains("Allow: ")
                    .contains("HTTP/1.1 400 ").contains("application/problem+json");
        }
    }

    @Test
    void connectIsAMethodNotAllowedProblem() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.getOutputStream().write(("CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n"
                    + "Connection: close\r\n\r\n").getBytes(US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 405 ").contains("application/problem+json");
        }
    }

    @Test
    void aHeaderRestEasyCannotParseIsABadRequestProblem() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", app.port())) {
            socket.getOutputStream().write(("POST /categories HTTP/1.1\r\nHost: test\r\nContent-Type: a/b/c;;==\r\n"
                    + "Content-Length: 2\r\nConnection: close\r\n\r\n{}").getBytes(US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), US_ASCII);

            assertThat(response).startsWith("HTTP/1.1 400 ").contains("application/problem+json");
        }
    }

    private static ServiceConfig config(String jdbcUrl) {
        Map<String, String> env = Map.of("PORT", "0", "DB_URL", jdbcUrl, "DB_USER", postgres.user(),
                "DB_PASSWORD", postgres.password(), "DB_POOL_SIZE", "4", "HTTP_THREADS", "8");
        return ServiceConfig.from(env, new Properties());
    }

    private static double sampleValue(String exposition, String name) {
        return exposition.lines()
                .filter(line -> line.startsWith(name + " "))
                .mapToDouble(line -> Double.parseDouble(line.substring(name.length() + 1).trim()))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name + " not exposed"));
    }

    private static HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    private static HttpResponse<String> send(String method, String path, String json)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
