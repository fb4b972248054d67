package dev.restbench.datarest;

import jakarta.persistence.EntityManagerFactory;
import dev.restbench.datarest.catalog.ItemRepository;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HAL API over HTTP against the real jar configuration and a real PostgreSQL holding the small dataset
 * (20 categories, 500 items; item j belongs to category 1 + (j-1) % 20). The full HAL contract suite lives in
 * contract-tests; this checks the parts this module is responsible for.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = "spring.jpa.properties.hibernate.generate_statistics=true")
class HalApiTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) {
        TestDatabase.register(registry);
    }

    @LocalServerPort
    int port;

    @Autowired
    EntityManagerFactory entityManagerFactory;

    @Autowired
    ItemRepository items;

    Statistics statistics;

    @BeforeEach
    void statistics() {
        statistics = entityManagerFactory.unwrap(SessionFactory.class).getStatistics();
    }

    @Test
    void listsItemsWithTheirCategoryInlineInOneQueryPlusCount() throws Exception {
        long itemsInDatabase = items.count();
        statistics.clear();
        Response response = get("/items?size=5");

        assertThat(response.status).isEqualTo(200);
        assertThat(response.contentType).startsWith("application/hal+json");
        JsonNode items = response.json.path("_embedded").path("items");
        assertThat(items).hasSize(5);
        assertThat(items.get(0).path("sku").asString()).isEqualTo("SKU-0000001");
        assertThat(items.get(0).path("category").path("code").asString()).isEqualTo("CAT-00001");
        assertThat(items.get(4).path("category").path("code").asString()).isEqualTo("CAT-00005");
        assertThat(items.get(4).path("_links").path("self").path("href").asString()).endsWith("/items/5");
        assertThat(response.json.path("page").path("totalElements").asLong()).isEqualTo(itemsInDatabase);
        assertThat(response.json.path("page").path("size").asInt()).isEqualTo(5);
        assertThat(statistics.getPrepareStatementCount()).as("page content + count").isEqualTo(2);
    }

    @Test
    void oneItemWithItsCategoryIsOneStatement() throws Exception {
        statistics.clear();
        Response response = get("/items/21?projection=itemWithCategory");

        assertThat(response.status).isEqualTo(200);
        assertThat(response.json.path("sku").asString()).isEqualTo("SKU-0000021");
        assertThat(response.json.path("category").path("code").asString()).isEqualTo("CAT-00001");
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);

        Response category = get("/items/21/category");
        assertThat(category.status).isEqualTo(200);
        assertThat(category.json.path("code").asString()).isEqualTo("CAT-00001");
        assertThat(category.json.path("_links").path("self").path("href").asString()).endsWith("/categories/1");
    }

    @Test
    void searchesItemsByCategoryInIdOrder() throws Exception {
        statistics.clear();
        Response firstPage = get("/items/search/byCategory?categoryId=3&size=10");
        assertThat(firstPage.json.path("_embedded").path("items")).hasSize(10);
        assertThat(statistics.getPrepareStatementCount()).as("page content + count").isEqualTo(2);

        // All 25 items of the category fit in one page, so Spring Data skips the count query.
        statistics.clear();
        Response response = get("/items/search/byCategory?categoryId=3&size=100");
        assertThat(statistics.getPrepareStatementCount()).as("page content only").isEqualTo(1);

        assertThat(response.status).isEqualTo(200);
        JsonNode items = response.json.path("_embedded").path("items");
        assertThat(items).hasSize(25);
        List<String> selfLinks = new ArrayList<>();
        for (JsonNode item : items) {
            assertThat(item.path("category").path("code").asString()).isEqualTo("CAT-00003");
            selfLinks.add(item.path("_links").path("self").path("href").asString());
        }
        assertThat(selfLinks.get(0)).endsWith("/items/3");
        assertThat(selfLinks.get(1)).endsWith("/items/23");
        assertThat(selfLinks.get(24)).endsWith("/items/483");
        assertThat(response.json.path("page").path("totalElements").asLong()).isEqualTo(25);
    }

    @Test
    void createsAnItemLinkedToItsCategoryAndSetsUpdatedAt() throws Exception {
        String sku = "W-" + UUID.randomUUID().toString().substring(0, 8);
        Instant before = Instant.now().minusSeconds(1);
        Response created = send("POST", "/items", """
                {"sku":"%s","name":"Test kettle","price":12.50,"stock":3,"description":null,
                 "category":"/categories/5","updatedAt":"2000-01-01T00:00:00Z"}""".formatted(sku));

        assertThat(created.status).isEqualTo(201);
        String location = created.location;
        assertThat(location).matches("http://[^/]+/items/\\d+");
        assertThat(created.json.path("sku").asString()).isEqualTo(sku);
        assertThat(Instant.parse(created.json.path("updatedAt").asString())).isAfter(before);

        Response read = get(URI.create(location).getPath() + "?projection=itemWithCategory");
        assertThat(read.status).isEqualTo(200);
        assertThat(read.json.path("category").path("code").asString()).isEqualTo("CAT-00005");
        assertThat(read.json.path("price").decimalValue()).isEqualByComparingTo("12.50");
        assertThat(read.json.path("updatedAt").asString()).isEqualTo(created.json.path("updatedAt").asString());

        Response replaced = send("PUT", URI.create(location).getPath(), """
                {"sku":"%s","name":"Test kettle","price":13,"stock":4,"category":"/categories/6"}""".formatted(sku));
        assertThat(replaced.status).isEqualTo(200);
        assertThat(replaced.json.path("stock").asInt()).isEqualTo(4);
        assertThat(Instant.parse(replaced.json.path("updatedAt").asString()))
                .isAfter(Instant.parse(created.json.path("updatedAt").asString()));
        assertThat(get(URI.create(location).getPath() + "/category").json.path("code").asString())
                .as("PUT moves the item to the linked category").isEqualTo("CAT-00006");

        Response incomplete = send("PUT", URI.create(location).getPath(), """
                {"sku":"%s","name":"Test kettle","price":13,"stock":4}""".formatted(sku));
        assertThat(incomplete.status).as("PUT replaces: the category is required").isEqualTo(400);

        Response moved = send("PATCH", URI.create(location).getPath(), "{\"category\":\"/categories/7\"}");
        assertThat(moved.status).isEqualTo(200);
        assertThat(get(URI.create(location).getPath() + "/category").json.path("code").asString())
                .isEqualTo("CAT-00007");
    }

    @Test
    void ignoresIdsInRequestBodies() throws Exception {
        String sku = "W-" + UUID.randomUUID().toString().substring(0, 8);
        Response created = send("POST", "/items", """
                {"id":2,"sku":"%s","name":"n","price":1,"stock":1,"category":"/categories/1"}""".formatted(sku));

        assertThat(created.status).isEqualTo(201);
        assertThat(created.location).doesNotEndWith("/items/2");
        assertThat(get("/items/2").json.path("sku").asString()).isEqualTo("SKU-0000002");
    }

    @Test
    void rejectsBadInputWithoutServerErrors() throws Exception {
        String valid = """
                {"sku":"%s","name":"n","price":1.5,"stock":1,"category":"/categories/1"}""";

        assertThat(send("POST", "/items", "{\"sku\":").status).as("malformed JSON").isEqualTo(400);
        assertThat(send("POST", "/items", valid.formatted("W-x").replace("1.5", "\"cheap\"")).status)
                .as("wrong type").isEqualTo(400);
        Response invalid = send("POST", "/items", valid.formatted(" ").replace("1.5", "1.555"));
        assertThat(invalid.status).as("validation").isEqualTo(400);
        assertThat(invalid.json.path("errors").findValuesAsString("property")).contains("sku", "price");
        assertThat(send("POST", "/items", valid.formatted("W-y").replace("/categories/1", "/categories/999")).status)
                .as("unknown category").isEqualTo(400);
        assertThat(send("POST", "/items", valid.formatted("SKU-0000001")).status).as("duplicate sku").isEqualTo(409);
        assertThat(send("DELETE", "/categories/1", null).status).as("category with items").isEqualTo(409);
        assertThat(send("POST", "/items", "{\"name\":\"" + "x".repeat(70_000) + "\"}").status)
                .as("oversized body").isEqualTo(413);
        assertThat(sendTyped("POST", "/items", "text/plain", "hello").status).as("not JSON").isEqualTo(415);
        assertThat(get("/items/999999").status).as("unknown id").isEqualTo(404);
        Response wrongMethod = send("DELETE", "/categories", null);
        assertThat(wrongMethod.status).as("method not allowed").isEqualTo(405);
        assertThat(wrongMethod.allow).contains("POST");
        assertThat(send("POST", "/items/1", "{}").status).as("method not allowed").isEqualTo(405);
        assertThat(get("/items/abc").status).as("non-numeric id").isEqualTo(400);
        assertThat(get("/items?size=101").status).as("page too large").isEqualTo(400);
        assertThat(get("/items?size=0").status).as("empty page").isEqualTo(400);
        assertThat(get("/items?page=-1").status).as("negative page").isEqualTo(400);
        assertThat(get("/items/search/byCategory?categoryId=x").status).as("non-numeric query").isEqualTo(400);
    }

    @Test
    void exposesHealthAndPrometheusMetrics() throws Exception {
        assertThat(get("/actuator/health").json.path("status").asString()).isEqualTo("UP");
        get("/items/1");
        HttpResponse<String> metrics = HTTP.send(HttpRequest.newBuilder(uri("/actuator/prometheus")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body())
                .contains("http_server_requests_seconds_bucket{")
                .contains("uri=\"/items/{id}\"")
                .contains("jvm_allocation_bytes_total")
                .contains("process_cpu_time")
                .contains("hikaricp_connections_max")
                .contains("application_ready_time");
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private Response get(String path) throws IOException, InterruptedException {
        return send("GET", path, null);
    }

    private Response send(String method, String path, String json) throws IOException, InterruptedException {
        return sendTyped(method, path, "application/json", json);
    }

    private Response sendTyped(String method, String path, String contentType, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).header("Accept", "application/hal+json, application/json");
        if (body == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", contentType).method(method, HttpRequest.BodyPublishers.ofString(body));
        }
        HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
        String type = response.headers().firstValue("Content-Type").orElse("");
        JsonNode json = type.contains("json") && !response.body().isEmpty() ? JSON.readTree(response.body()) : null;
        return new Response(response.statusCode(), type, response.headers().firstValue("Location").orElse(null),
                response.headers().firstValue("Allow").orElse(""), json);
    }

    private record Response(int status, String contentType, String location, String allow, JsonNode json) {
    }
}
