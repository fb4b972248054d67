package dev.restbench.springmvc;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The data layer of this variant through the whole service (spring-mvc's web layer, compiled again) on a random
 * port against a real embedded PostgreSQL holding the small dataset. Statements are counted from JdbcTemplate's
 * debug log (every statement goes through JdbcClient); contract-tests counts them again on the server side and runs
 * the whole plain-API contract against the jar.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "logging.level.org.springframework.jdbc.core.JdbcTemplate=debug")
@ExtendWith(OutputCaptureExtension.class)
class SpringMvcJdbcApplicationTest {

    private static final String TEMPLATE = "spring_mvc_jdbc_test_template";
    private static final Pattern STATEMENT = Pattern.compile("Executing prepared SQL statement");
    private static PostgresServer postgres;

    private final HttpClient http = HttpClient.newHttpClient();
    private final JsonMapper json = JsonMapper.builder().build();

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate(TEMPLATE, DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate(TEMPLATE, "spring_mvc_jdbc_test");
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
    void readsAnItemWithItsCategoryInOneStatement(CapturedOutput output) throws Exception {
        int before = statements(output);
        HttpResponse<String> response = get("/items/7");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        JsonNode item = json.readTree(response.body());
        assertThat(item.get("sku").asString()).isEqualTo("SKU-0000007");
        assertThat(item.get("price").decimalValue().scale()).isEqualTo(2);
        // The dataset puts item j in category 1 + (j-1) % categories.
        assertThat(item.get("category").get("code").asString()).isEqualTo("CAT-00007");
        assertThat(item.get("updatedAt").asString()).endsWith("Z");
        assertThat(statements(output) - before).isEqualTo(1);
    }

    @Test
    void listsItemsWithTheirCategoriesInCountPlusContentStatements(CapturedOutput output) throws Exception {
        int before = statements(output);
        HttpResponse<String> response = get("/items?categoryId=3&page=1&size=10");

        assertThat(response.statusCode()).isEqualTo(200);
        JsonNode page = json.readTree(response.body());
        // Small dataset: 500 items over 20 categories, 25 each.
        assertThat(page.get("content").size()).isEqualTo(10);
        assertThat(page.get("content").get(0).get("category").get("id").asLong()).isEqualTo(3);
        assertThat(page.get("totalElements").asLong()).isEqualTo(25);
        assertThat(page.get("totalPages").asInt()).isEqualTo(3);
        assertThat(statements(output) - before).isEqualTo(2);

        assertThat(get("/categories/987654/items").statusCode()).isEqualTo(404);
        assertThat(get("/items?page=99999999&size=100").statusCode()).isEqualTo(200);
    }

    @Test
    void writesAnItemInOneStatementAndAnswersConflictsFromTheConstraints(CapturedOutput output) throws Exception {
        String sku = "W-" + UUID.randomUUID().toString().substring(0, 8);
        String body = """
                {"sku":"%s","name":"Widget","price":12.5,"stock":3,"categoryId":2}""".formatted(sku);

        int before = statements(output);
        HttpResponse<String> created = send("POST", "/items", body);
        assertThat(created.statusCode()).isEqualTo(201);
        assertThat(statements(output) - before).as("one INSERT … RETURNING joined to category").isEqualTo(1);
        JsonNode item = json.readTree(created.body());
        long id = item.get("id").asLong();
        assertThat(created.headers().firstValue("Location")).hasValue("/items/" + id);
        assertThat(item.get("price").decimalValue()).isEqualByComparingTo("12.50");
        assertThat(item.get("description").isNull()).isTrue();
        assertThat(item.get("category").get("code").asString()).isEqualTo("CAT-00002");

        HttpResponse<String> duplicate = send("POST", "/items", body);
        assertThat(duplicate.statusCode()).isEqualTo(409);
        assertThat(json.readTree(duplicate.body()).get("errors").get(0).get("field").asString()).isEqualTo("sku");

        HttpResponse<String> unknownCategory = send("POST", "/items",
                body.replace(sku, sku + "x").replace("\"categoryId\":2", "\"categoryId\":987654"));
        assertThat(unknownCategory.statusCode()).isEqualTo(400);
        assertThat(json.readTree(unknownCategory.body()).get("errors").get(0).get("field").asString())
                .isEqualTo("categoryId");

        before = statements(output);
        HttpResponse<String> moved = send("PUT", "/items/" + id,
                body.replace("\"categoryId\":2", "\"categoryId\":5").replace("12.5", "7"));
        assertThat(moved.statusCode()).isEqualTo(200);
        assertThat(statements(output) - before).as("one UPDATE … RETURNING joined to category").isEqualTo(1);
        assertThat(json.readTree(moved.body()).get("category").get("id").asLong()).isEqualTo(5);
        assertThat(json.readTree(moved.body()).get("price").decimalValue()).isEqualByComparingTo("7.00");

        assertThat(send("PUT", "/items/987654", body).statusCode()).isEqualTo(404);
        assertThat(send("DELETE", "/items/" + id, null).statusCode()).isEqualTo(204);
        assertThat(send("DELETE", "/items/" + id, null).statusCode()).isEqualTo(404);
        assertThat(get("/items/" + id).statusCode()).isEqualTo(404);
    }

    @Test
    void refusesToDeleteACategoryThatStillHasItems() throws Exception {
        HttpResponse<String> response = send("DELETE", "/categories/1", null);

        assertThat(response.statusCode()).isEqualTo(409);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(json.readTree(response.body()).get("type").asString()).isEqualTo("about:blank");
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
                "process_cpu_time_ns_total",
                "hikaricp_connections_active{",
                "hikaricp_connections_max{",
                "jvm_allocation_bytes_total",
                "application_ready_time_seconds");
    }

    private static int statements(CapturedOutput output) {
        Matcher matcher = STATEMENT.matcher(output.getOut());
        int count = 0;
        while (matcher.find()) {
            count++;
        }
        return count;
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    private HttpResponse<String> send(String method, String path, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path));
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
