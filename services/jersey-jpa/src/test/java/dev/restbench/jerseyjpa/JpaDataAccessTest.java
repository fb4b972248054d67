package dev.restbench.jerseyjpa;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.jersey.JerseyApp;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jerseyjpa.data.JpaDatabase;
import dev.restbench.support.FaultInjection;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.hibernate.SessionFactory;
import org.hibernate.stat.Statistics;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * What the JPA data access costs per request, counted by Hibernate's statistics (every statement this service sends
 * goes through Hibernate): the counts of the README, which are spring-mvc's. PostgreSQL's own count of every
 * request, with the transaction control, is the contract tests' SqlStatementCountTest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JpaDataAccessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    private PostgresServer postgres;
    private JerseyApp app;
    private Statistics statistics;
    private String base;
    private int sequence;

    @BeforeAll
    void start() {
        postgres = PostgresServer.embedded(0, false);
        postgres.ensureTemplate("jersey_jpa_stats_template", DatasetSpec.SMALL);
        String url = postgres.createDatabaseFromTemplate("jersey_jpa_stats_template", "jersey_jpa_stats");
        ServiceConfig config = ServiceConfig.from(Map.of("PORT", "0", "DB_URL", url, "DB_USER", postgres.user(),
                "DB_PASSWORD", postgres.password(), "DB_POOL_SIZE", "4", "HTTP_THREADS", "8"), new Properties());
        AtomicReference<JpaDatabase> database = new AtomicReference<>();
        app = JerseyApp.start(config, new FaultInjection(0), (settings, registry) -> {
            database.set(JpaDatabase.open(settings, registry, Map.of("hibernate.generate_statistics", true)));
            return database.get().dataAccess();
        });
        statistics = database.get().entityManagerFactory().unwrap(SessionFactory.class).getStatistics();
        base = "http://127.0.0.1:" + app.port();
    }

    @AfterAll
    void stop() {
        if (app != null) {
            app.close();
        }
        if (postgres != null) {
            postgres.close();
        }
    }

    @BeforeEach
    void clearStatistics() {
        statistics.clear();
    }

    @Test
    void readsAnItemWithItsCategoryInOneStatementAndOneTransaction() throws Exception {
        JsonNode item = json(send("GET", "/items/42", null), 200);

        assertThat(item.path("category").path("id").asLong()).isEqualTo(2);
        assertThat(item.path("category").path("code").asText()).isEqualTo("CAT-00002");
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);
        assertThat(statistics.getSuccessfulTransactionCount()).isEqualTo(1);
        assertThat(statistics.getEntityLoadCount()).as("the item and its category, from the one row").isEqualTo(2);
    }

    @Test
    void aFullPageIsContentPlusCount() throws Exception {
        JsonNode page = json(send("GET", "/items?size=100", null), 200);

        assertThat(page.path("content")).hasSize(100);
        assertThat(page.path("totalElements").asLong()).isEqualTo(500);
        assertThat(statistics.getPrepareStatementCount()).as("no statement per category").isEqualTo(2);
    }

    @Test
    void aPageThatTellsItsTotalSkipsTheCount() throws Exception {
        // SMALL: 25 items in category 3, so page 1 of size 20 holds 5: the total is 20 + 5, as Spring Data derives.
        JsonNode page = json(send("GET", "/categories/3/items?page=1&size=20", null), 200);

        assertThat(page.path("content")).hasSize(5);
        assertThat(page.path("totalElements").asLong()).isEqualTo(25);
        assertThat(page.path("totalPages").asLong()).isEqualTo(2);
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);
    }

    @Test
    void anEmptyCategoryIsAskedWhetherItExists() throws Exception {
        long empty = created(send("POST", "/categories", category()));
        statistics.clear();

        JsonNode page = json(send("GET", "/categories/" + empty + "/items", null), 200);
        assertThat(page.path("totalElements").asLong()).isZero();
        assertThat(statistics.getPrepareStatementCount()).as("content + exists").isEqualTo(2);

        statistics.clear();
        assertThat(send("GET", "/categories/987654321/items", null).statusCode()).isEqualTo(404);
        assertThat(statistics.getPrepareStatementCount()).as("content + exists").isEqualTo(2);
    }

    @Test
    void aPageBeyondAnIntOffsetIsItsTotalOnly() throws Exception {
        JsonNode page = json(send("GET", "/items?page=2147483647&size=100", null), 200);

        assertThat(page.path("content")).isEmpty();
        assertThat(page.path("totalElements").asLong()).isEqualTo(500);
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);
    }

    @Test
    void writesAnItemWithTheStatementsOfSpringMvc() throws Exception {
        long id = created(send("POST", "/items", item(1)));
        assertThat(statistics.getPrepareStatementCount()).as("SELECT category + INSERT").isEqualTo(2);

        statistics.clear();
        assertThat(send("PUT", "/items/" + id, item(1)).statusCode()).isEqualTo(200);
        assertThat(statistics.getPrepareStatementCount()).as("SELECT item join category + UPDATE").isEqualTo(2);

        statistics.clear();
        JsonNode moved = json(send("PUT", "/items/" + id, item(2)), 200);
        assertThat(moved.path("category").path("id").asLong()).isEqualTo(2);
        assertThat(statistics.getPrepareStatementCount()).as("+ SELECT of the new category").isEqualTo(3);

        statistics.clear();
        assertThat(send("DELETE", "/items/" + id, null).statusCode()).isEqualTo(204);
        assertThat(statistics.getPrepareStatementCount()).as("one DELETE").isEqualTo(1);
        assertThat(statistics.getSuccessfulTransactionCount()).isEqualTo(1);

        statistics.clear();
        assertThat(send("PUT", "/items/" + id, item(1)).statusCode()).isEqualTo(404);
        assertThat(statistics.getPrepareStatementCount()).isEqualTo(1);
    }

    @Test
    void theUpdatedRowIsWhatTheResponseShows() throws Exception {
        String body = item(3).replace("\"price\":1.25", "\"price\":7.5");
        long id = created(send("POST", "/items", body));

        try (Connection connection = postgres.connect("jersey_jpa_stats");
             Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT price, category_id FROM item WHERE id = " + id)) {
            assertThat(row.next()).isTrue();
            assertThat(row.getBigDecimal(1)).isEqualByComparingTo("7.50");
            assertThat(row.getLong(2)).isEqualTo(3);
        }
        assertThat(send("GET", "/items/" + id, null).body()).contains("\"price\":7.50");
    }

    @Test
    void conflictsAndUnknownCategoriesComeFromTheDatabaseOrTheLookup() throws Exception {
        String category = category();
        long first = created(send("POST", "/categories", category));
        long second = created(send("POST", "/categories", category()));

        assertThat(send("POST", "/categories", category).statusCode()).as("duplicate code").isEqualTo(409);
        HttpResponse<String> renamed = send("PUT", "/categories/" + second, category);
        assertThat(renamed.statusCode()).as("duplicate code on update, raised by the flush").isEqualTo(409);
        assertThat(renamed.body()).contains("already exists");
        assertThat(send("GET", "/categories/" + second, null).statusCode()).isEqualTo(200);

        statistics.clear();
        HttpResponse<String> unknown = send("POST", "/items", item(987654321));
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(unknown.body()).contains("\"field\":\"categoryId\"");
        assertThat(statistics.getPrepareStatementCount()).as("SELECT category only").isEqualTo(1);

        long itemId = created(send("POST", "/items", item(first)));
        assertThat(send("DELETE", "/categories/" + first, null).statusCode()).as("still has items").isEqualTo(409);
        assertThat(send("DELETE", "/items/" + itemId, null).statusCode()).isEqualTo(204);
        assertThat(send("DELETE", "/categories/" + first, null).statusCode()).isEqualTo(204);
        assertThat(send("DELETE", "/categories/" + first, null).statusCode()).isEqualTo(404);
    }

    @Test
    void refusedRequestsCostNoStatement() throws Exception {
        assertThat(send("GET", "/items?size=101", null).statusCode()).isEqualTo(400);
        assertThat(send("GET", "/items/abc", null).statusCode()).isEqualTo(400);
        assertThat(send("POST", "/items", "{\"sku\":\" \"}").statusCode()).isEqualTo(400);

        assertThat(statistics.getPrepareStatementCount()).isZero();
        assertThat(statistics.getTransactionCount()).isZero();
    }

    private String category() {
        String code = "JJ-" + (++sequence) + "-" + System.nanoTime();
        return "{\"code\":\"" + code + "\",\"name\":\"Test " + code + "\"}";
    }

    private String item(long categoryId) {
        String sku = "WJS-" + (++sequence) + "-" + System.nanoTime();
        return "{\"sku\":\"" + sku + "\",\"name\":\"Test\",\"price\":1.25,\"stock\":2,\"categoryId\":" + categoryId + "}";
    }

    private static long created(HttpResponse<String> response) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
        return JSON.readTree(response.body()).path("id").asLong();
    }

    private static JsonNode json(HttpResponse<String> response, int status) throws IOException {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
        return JSON.readTree(response.body());
    }

    private HttpResponse<String> send(String method, String path, String json)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path));
        if (json == null) {
            request.method(method, HttpRequest.BodyPublishers.noBody());
        } else {
            request.header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json));
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
