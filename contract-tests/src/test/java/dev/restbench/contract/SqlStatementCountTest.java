package dev.restbench.contract;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How many SQL statements each endpoint costs, counted by PostgreSQL itself (see {@link StatementLog}), so the
 * numbers hold for any stack. Every variant of the manifest runs its dialect's cases; the expectations are the fair
 * minimum of each stack's idiomatic way and live with the variant ({@link SqlExpectations}: sql-statements.json in
 * its folder, which says why). A page is content + count. A read never costs more than one statement per resource
 * kind (no N+1), whatever the page size.
 */
@ExtendWith(ContractEnvironment.class)
class SqlStatementCountTest {

    /** One endpoint: what to prepare outside the counted window, the counted request, its status. */
    record Case(String name, Function<Http, Long> prepare, BiFunction<Http, Long, Http.Response> request,
                int status) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static final String TAG = UUID.randomUUID().toString().substring(0, 8);
    private static int sequence;

    private static synchronized String unique() {
        return "S-" + TAG + "-" + (++sequence);
    }

    private static ObjectNode category() {
        ObjectNode body = Http.JSON.createObjectNode();
        String code = unique();
        return body.put("code", code).put("name", "Counted " + code);
    }

    private static ObjectNode item(long categoryId) {
        ObjectNode body = Http.JSON.createObjectNode();
        String sku = unique();
        return body.put("sku", sku).put("name", "Counted " + sku).put("price", 1.25).put("stock", 1)
                .put("categoryId", categoryId);
    }

    private static long created(Http.Response response) {
        assertThat(response.status()).as("preparing: %s", response).isEqualTo(201);
        // From Location, which both dialects send (HAL bodies carry no id property).
        String location = response.header("Location").orElseThrow();
        return Long.parseLong(location.substring(location.lastIndexOf('/') + 1));
    }

    private static long newCategory(Http http) {
        return created(http.post("/categories", category()));
    }

    private static long newItem(Http http) {
        return created(http.post("/items", item(1)));
    }

    private static Function<Http, Long> nothing() {
        return http -> 0L;
    }

    static List<Case> cases() {
        return List.of(
                new Case("GET /categories/{id}", nothing(), (http, id) -> http.get("/categories/3"), 200),
                new Case("GET /items/{id} (with its category)", nothing(), (http, id) -> http.get("/items/42"), 200),
                new Case("GET /categories (full page)", nothing(), (http, id) -> http.get("/categories?size=5"),
                        200),
                new Case("GET /items (full page of 100, categories inline)", nothing(),
                        (http, id) -> http.get("/items?size=100"), 200),
                new Case("GET /items?categoryId= (full page)", nothing(),
                        (http, id) -> http.get("/items?categoryId=2&size=20"), 200),
                new Case("GET /categories/{id}/items (full page)", nothing(),
                        (http, id) -> http.get("/categories/2/items?size=20"), 200),
                new Case("GET /categories/{id}/items (empty category)", SqlStatementCountTest::newCategory,
                        (http, id) -> http.get("/categories/" + id + "/items"), 200),
                new Case("GET /categories/{id}/items (unknown category)", nothing(),
                        (http, id) -> http.get("/categories/987654321/items"), 404),
                new Case("GET /items/{id} (unknown)", nothing(), (http, id) -> http.get("/items/987654321"), 404),
                new Case("POST /categories", nothing(), (http, id) -> http.post("/categories", category()), 201),
                new Case("PUT /categories/{id}", SqlStatementCountTest::newCategory,
                        (http, id) -> http.put("/categories/" + id, category()), 200),
                new Case("DELETE /categories/{id}", SqlStatementCountTest::newCategory,
                        (http, id) -> http.delete("/categories/" + id), 204),
                new Case("DELETE /categories/{id} (still has items)", nothing(),
                        (http, id) -> http.delete("/categories/1"), 409),
                new Case("POST /items", nothing(), (http, id) -> http.post("/items", item(1)), 201),
                new Case("PUT /items/{id} (same category)", SqlStatementCountTest::newItem,
                        (http, id) -> http.put("/items/" + id, item(1)), 200),
                new Case("PUT /items/{id} (to another category)", SqlStatementCountTest::newItem,
                        (http, id) -> http.put("/items/" + id, item(2)), 200),
                new Case("DELETE /items/{id}", SqlStatementCountTest::newItem,
                        (http, id) -> http.delete("/items/" + id), 204));
    }

    private static ObjectNode halItem(long categoryId) {
        ObjectNode body = item(categoryId);
        body.remove("categoryId");
        return body.put("category", "/categories/" + categoryId);
    }

    private static Http.Response halSend(Http http, String method, String path, Object body) {
        Http.Request request = http.request(method, path).accept("application/hal+json");
        return body == null ? request.send() : request.json(body).send();
    }

    private static long newHalItem(Http http) {
        return created(halSend(http, "POST", "/items", halItem(1)));
    }

    /** The same operations the HAL (Spring Data REST) way: resources by link, the category as an association. */
    static List<Case> halCases() {
        return List.of(
                new Case("GET /categories/{id}", nothing(), (http, id) -> halSend(http, "GET", "/categories/3", null),
                        200),
                new Case("GET /items/{id}?projection=itemWithCategory", nothing(),
                        (http, id) -> halSend(http, "GET", "/items/42?projection=itemWithCategory", null), 200),
                new Case("GET /categories (full page)", nothing(),
                        (http, id) -> halSend(http, "GET", "/categories?size=5", null), 200),
                new Case("GET /items (full page of 100, excerpts with category)", nothing(),
                        (http, id) -> halSend(http, "GET", "/items?size=100", null), 200),
                new Case("GET /items/search/byCategory (full page)", nothing(),
                        (http, id) -> halSend(http, "GET", "/items/search/byCategory?categoryId=2&size=20", null),
                        200),
                new Case("GET /items/{id} (unknown)", nothing(),
                        (http, id) -> halSend(http, "GET", "/items/987654321", null), 404),
                new Case("POST /categories", nothing(), (http, id) -> halSend(http, "POST", "/categories", category()),
                        201),
                new Case("PUT /categories/{id}", SqlStatementCountTest::newCategory,
                        (http, id) -> halSend(http, "PUT", "/categories/" + id, category()), 200),
                new Case("POST /items (category link)", nothing(),
                        (http, id) -> halSend(http, "POST", "/items", halItem(1)), 201),
                new Case("PUT /items/{id} (same category)", SqlStatementCountTest::newHalItem,
                        (http, id) -> halSend(http, "PUT", "/items/" + id, halItem(1)), 200),
                new Case("DELETE /items/{id}", SqlStatementCountTest::newHalItem,
                        (http, id) -> halSend(http, "DELETE", "/items/" + id, null), 204),
                new Case("DELETE /categories/{id}", SqlStatementCountTest::newCategory,
                        (http, id) -> halSend(http, "DELETE", "/categories/" + id, null), 204));
    }

    /** Every variant of the manifest with its dialect's cases. */
    static Stream<Arguments> allCases() {
        List<Arguments> arguments = new ArrayList<>();
        for (String variant : ContractManifest.all()) {
            for (Case c : ContractManifest.isHal(variant) ? halCases() : cases()) {
                arguments.add(Arguments.of(variant, c));
            }
        }
        return arguments.stream();
    }

    /** A variant's sql-statements.json names only requests of its dialect's cases (a typo would never be checked). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.restbench.contract.ContractManifest#all")
    void declaresOnlyRequestsTheSuiteSends(String variant) {
        SqlExpectations expectations = SqlExpectations.of(ContractManifest.variant(variant));
        List<String> names = (ContractManifest.isHal(variant) ? halCases() : cases()).stream().map(Case::name).toList();
        assertThat(expectations.requests().keySet()).as("requests in %s", expectations.file())
                .isSubsetOf(names);
        assertThat(expectations.requests().values()).as("statements in %s", expectations.file())
                .allSatisfy(e -> assertThat(e.statements()).isPositive());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("allCases")
    void countsTheStatementsOfOneRequest(String variant, Case c) {
        SqlExpectations expectations = SqlExpectations.of(ContractManifest.variant(variant));
        ContractEnvironment.Service service = ContractEnvironment.service(variant);
        Http http = new Http(service.baseUri());
        long id = c.prepare().apply(http);
        AtomicReference<Http.Response> response = new AtomicReference<>();
        StatementLog.Window window = ContractEnvironment.statementLog()
                .statements(service.database(), () -> response.set(c.request().apply(http, id)));
        List<String> statements = window.data();
        assertThat(response.get().status()).as("%s", response.get()).isEqualTo(c.status());
        SqlExpectations.Expected expected = expectations.of(c.name(), statements, window.transactionControl());
        assertThat(statements).as("%s %s issued:\n%s", variant, c.name(), String.join("\n", statements))
                .hasSize(expected.statements());

        String transactions = variant + " " + c.name() + " transaction control: " + window.transactionControl();
        assertThat(window.count("BEGIN")).as(transactions).isEqualTo(expected.transactions());
        if (c.status() < 300) {
            // A successful request commits what it began: a ROLLBACK would be a wasted round trip (or lost work).
            assertThat(window.count("ROLLBACK")).as(transactions).isZero();
            assertThat(window.count("COMMIT")).as(transactions).isEqualTo(window.count("BEGIN"));
            assertThat(window.transactionRoundTrips()).as(transactions).isEqualTo(expected.transactions());
        }
    }

    /**
     * The no-database workload's endpoint sends PostgreSQL nothing at all, in every variant and dialect: its
     * contract, not a variant's declaration. A held key and a computed one (the first read of a new key).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.restbench.contract.ContractManifest#all")
    void theCacheNeverTouchesTheDatabase(String variant) {
        ContractEnvironment.Service service = ContractEnvironment.service(variant);
        Http http = new Http(service.baseUri());
        for (String key : List.of("key5", unique())) {
            AtomicReference<Http.Response> response = new AtomicReference<>();
            StatementLog.Window window = ContractEnvironment.statementLog()
                    .statements(service.database(), () -> response.set(http.get("/cache/" + key)));
            assertThat(response.get().status()).as("%s", response.get()).isEqualTo(200);
            assertThat(window.data()).as("%s GET /cache/%s issued", variant, key).isEmpty();
            assertThat(window.transactionControl()).as("%s GET /cache/%s", variant, key).isEmpty();
        }
    }
}
