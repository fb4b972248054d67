package dev.restbench.jersey;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
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
import java.util.function.BiFunction;
import java.util.function.ToIntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The jersey application's resources, started in-process by a JAX-RS runtime against a real (embedded) PostgreSQL
 * holding the small dataset: the tests every runtime of these sources passes. jersey (Grizzly) and resteasy
 * (Undertow) compile this folder as a test source; each subclass says how to start its runtime.
 *
 * @param <A> the runtime's application: started by {@code start}, its port by {@code port}, closed at the end
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class JaxRsAppContract<A extends AutoCloseable> {

    protected static final ObjectMapper JSON = new ObjectMapper();
    /** The JDK client's defaults on purpose: it offers {@code Upgrade: h2c} on every request. */
    protected static final HttpClient HTTP = HttpClient.newHttpClient();

    private final String name;
    private final String skuPrefix;
    private final BiFunction<ServiceConfig, FaultInjection, A> start;
    private final ToIntFunction<A> port;

    protected PostgresServer postgres;
    protected A app;
    protected String base;

    /**
     * @param name      prefix of the test databases, e.g. "jersey"
     * @param skuPrefix prefix of the skus the tests create, unique per variant
     */
    protected JaxRsAppContract(String name, String skuPrefix, BiFunction<ServiceConfig, FaultInjection, A> start,
                               ToIntFunction<A> port) {
        this.name = name;
        this.skuPrefix = skuPrefix;
        this.start = start;
        this.port = port;
    }

    @BeforeAll
    void startTheApplication() {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate(name + "_test_template", DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate(name + "_test_template", name + "_test");
        app = start.apply(config(url), new FaultInjection(0));
        base = "http://127.0.0.1:" + port();
    }

    @AfterAll
    void stop() throws Exception {
        if (app != null) {
            app.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    /** The port the application under test listens on. */
    protected int port() {
        return port.applyAsInt(app);
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
    void servesTheCacheWithoutTheDatabaseAndRefusesKeysOutsideTheContract() throws Exception {
        HttpResponse<String> held = get("/cache/key7");
        assertThat(held.statusCode()).isEqualTo(200);
        assertThat(held.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(JSON.readTree(held.body()).path("value").asText()).isEqualTo("value-key7");
        assertThat(JSON.readTree(get("/cache/key%2D7").body()).path("key").asText()).isEqualTo("key-7");

        HttpResponse<String> refused = get("/cache/a.b");
        assertThat(refused.statusCode()).isEqualTo(400);
        assertThat(refused.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(JSON.readTree(refused.body()).path("errors").get(0).path("field").asText()).isEqualTo("key");
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
        try (Socket socket = new Socket("127.0.0.1", port())) {
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
                "{\"sku\":\"" + skuPrefix + "-NUL\",\"name\":\"a\\u0000b\",\"price\":1,\"stock\":1,\"categoryId\":1}");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(response.body()).path("errors").findValuesAsText("field")).containsExactly("name");
    }

    @Test
    void writesRoundTripAndConflictsComeFromTheDatabase() throws Exception {
        String body = "{\"sku\":\"" + skuPrefix + "-1\",\"name\":\"Test\",\"price\":12.5,\"stock\":3,\"categoryId\":2}";
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
        String url = postgres.createDatabaseFromTemplate(name + "_test_template", name + "_fault");
        try (A drilled = start.apply(config(url), new FaultInjection(50))) {
            HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port.applyAsInt(drilled) + "/categories/3")).build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(JSON.readTree(response.body()).path("id").asLong()).isEqualTo(3);
        }
    }

    @Test
    void refusesToStartOnADatabaseWithoutTheSchema() throws Exception {
        try (Connection admin = postgres.connect("postgres"); Statement statement = admin.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS " + name + "_empty");
            statement.execute("CREATE DATABASE " + name + "_empty");
        }

        assertThatThrownBy(() -> start.apply(config(postgres.jdbcUrl(name + "_empty")), new FaultInjection(0)))
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

        assertThatThrownBy(() -> start.apply(config(url), new FaultInjection(0)))
                .isInstanceOf(StartupException.class)
                .hasMessageContaining("cannot connect to PostgreSQL at " + url);
    }

    private ServiceConfig config(String jdbcUrl) {
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

    protected HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    protected HttpResponse<String> send(String method, String path, String json)
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
