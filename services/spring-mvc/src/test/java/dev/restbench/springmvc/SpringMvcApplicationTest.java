package dev.restbench.springmvc;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import jakarta.persistence.EntityManagerFactory;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service as a whole on a random port against a real embedded PostgreSQL holding the small dataset. SQL
 * statements are counted with Hibernate's statistics (every statement this service sends goes through
 * Hibernate); contract-tests counts them again on the server side.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.jpa.properties.hibernate.generate_statistics=true",
        "logging.level.org.hibernate.engine.internal.StatisticalLoggingSessionEventListener=warn"})
class SpringMvcApplicationTest {

    private static final String TEMPLATE = "spring_mvc_test_template";
    private static PostgresServer postgres;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    private Statistics statistics;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate(TEMPLATE, DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate(TEMPLATE, "spring_mvc_test");
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

    @BeforeEach
    void countStatements() {
        statistics = entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
        statistics.clear();
    }

    @Test
    void readsAnItemWithItsCategoryInOneStatement() throws Exception {
        HttpResponse<String> response = get("/items/7");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode item = json.readTree(response.body());
        assertThat(item.get("id").asLong()).isEqualTo(7);
        assertThat(item.get("sku").asString()).isEqualTo("SKU-0000007");
        // The dataset puts item j in category 1 + (j-1) % categories.
        assertThat(item.get("category").get("id").asLong()).isEqualTo(7);
        assertThat(item.get("category").get("code").asString()).isEqualTo("CAT-00007");
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);
    }

    @Test
    void listsItemsWithTheirCategoriesInContentPlusCountStatements() throws Exception {
        HttpResponse<String> response = get("/items?page=1&size=30");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode page = json.readTree(response.body());
        assertThat(page.get("content").size()).isEqualTo(30);
        assertThat(page.get("content").get(0).get("id").asLong()).isEqualTo(31);
        assertThat(page.get("content").get(0).get("category").get("id").asLong()).isEqualTo(11);
        assertThat(page.get("totalElements").asLong()).isGreaterThanOrEqualTo(500);
        // 30 items of 20 different categories, and still no per-row category load.
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(2);
    }

    @Test
    void refusesBadPagingWithAProblemDetail() throws Exception {
        HttpResponse<String> response = get("/categories?size=101");

        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        JsonNode problem = json.readTree(response.body());
        assertThat(problem.get("type").asString()).isEqualTo("about:blank");
        assertThat(problem.get("title").asString()).isEqualTo("Bad Request");
        assertThat(problem.get("status").asInt()).isEqualTo(400);
        assertThat(problem.get("instance").asString()).isEqualTo("/categories");
        assertThat(problem.get("errors").get(0).get("field").asString()).isEqualTo("size");
        assertThat(statistics.getPrepareStatementCount()).isZero();
    }

    @Test
    void refusesWrongTypesInTheBodyAndThePath() throws Exception {
        HttpResponse<String> numberForString = send("POST", "/categories", """
                {"code":5,"name":"Five"}""");
        assertThat(numberForString.statusCode()).isEqualTo(400);
        assertThat(json.readTree(numberForString.body()).get("errors").get(0).get("field").asString())
                .isEqualTo("code");

        HttpResponse<String> fraction = send("POST", "/items", """
                {"sku":"W-frac","name":"n","price":1,"stock":1.5,"categoryId":1}""");
        assertThat(fraction.statusCode()).isEqualTo(400);

        assertThat(get("/items/abc").statusCode()).isEqualTo(400);
        assertThat(statistics.getPrepareStatementCount()).isZero();
    }

    @Test
    void answersRequestsTomcatRefusesItselfWithAProblemDetail() throws Exception {
        HttpResponse<String> encodedSlash = get("/items/..%2F..%2Fetc%2Fpasswd");
        assertThat(encodedSlash.statusCode()).isEqualTo(400);
        assertThat(encodedSlash.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(json.readTree(encodedSlash.body()).get("status").asInt()).isEqualTo(400);
    }

    @Test
    void createsUpdatesAndDeletesAnItemWithMinimalStatements() throws Exception {
        String sku = "W-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"sku":"%s","name":"Widget","price":12.5,"stock":3,"categoryId":2}""".formatted(sku);

        HttpResponse<String> created = send("POST", "/items", body);
        assertThat(created.statusCode()).isEqualTo(201);
        JsonNode item = json.readTree(created.body());
        long id = item.get("id").asLong();
        assertThat(created.headers().firstValue("Location")).hasValue("/items/" + id);
        assertThat(item.get("price").decimalValue()).isEqualByComparingTo("12.50");
        assertThat(item.get("description").isNull()).isTrue();
        assertThat(item.get("category").get("id").asLong()).isEqualTo(2);
        assertThat(statistics.getPrepareStatementCount()).as("SELECT category + INSERT").isEqualTo(2);

        statistics.clear();
        HttpResponse<String> updated = send("PUT", "/items/" + id, body.replace("\"stock\":3", "\"stock\":4"));
        assertThat(updated.statusCode()).isEqualTo(200);
        assertThat(json.readTree(updated.body()).get("stock").asInt()).isEqualTo(4);
        assertThat(statistics.getPrepareStatementCount()).as("SELECT item join category + UPDATE").isEqualTo(2);

        statistics.clear();
        assertThat(send("POST", "/items", body).statusCode()).as("duplicate sku").isEqualTo(409);

        statistics.clear();
        assertThat(send("DELETE", "/items/" + id, null).statusCode()).isEqualTo(204);
        assertThat(statistics.getPrepareStatementCount()).as("one DELETE").isEqualTo(1);
        assertThat(get("/items/" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void refusesAnOversizedBodyWithOrWithoutContentLength() throws Exception {
        String big = """
                {"code":"W-big","name":"%s"}""".formatted("x".repeat(70_000));

        HttpResponse<String> declared = send("POST", "/categories", big);
        assertThat(declared.statusCode()).isEqualTo(413);
        assertThat(declared.headers().firstValue("Content-Type")).hasValue("application/problem+json");

        HttpRequest chunked = HttpRequest.newBuilder(uri("/categories"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(big.getBytes())))
                .build();
        HttpResponse<String> streamed = http.send(chunked, HttpResponse.BodyHandlers.ofString());
        assertThat(streamed.statusCode()).isEqualTo(413);
        assertThat(json.readTree(streamed.body()).get("status").asInt()).isEqualTo(413);
    }

    @Test
    void reportsHealthAndTheSharedMeterNames() throws Exception {
        HttpResponse<String> health = get("/actuator/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(json.readTree(health.body()).get("status").asString()).isEqualTo("UP");

        get("/items/1"); // so that http.server.requests has a sample
        HttpResponse<String> scrape = get("/actuator/prometheus");
        assertThat(scrape.statusCode()).isEqualTo(200);
        assertThat(scrape.body()).contains(
                "http_server_requests_seconds_bucket{",
                "uri=\"/items/{id}\"",
                "jvm_memory_used_bytes",
                "jvm_gc_memory_allocated_bytes_total",
                "jvm_threads_live_threads",
                "jvm_classes_loaded_classes",
                "process_cpu_usage",
                "process_cpu_time_ns_total", // Micrometer's ProcessorMetrics counts process.cpu.time in ns
                "process_uptime_seconds",
                "process_start_time_seconds",
                "hikaricp_connections_active{",
                "hikaricp_connections_max{",
                "jvm_allocation_bytes_total",
                "application_ready_time_seconds");
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    private HttpResponse<String> send(String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }
}
