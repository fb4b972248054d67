package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HAL contract of spring-data-rest (docs/ARCHITECTURE.md, "The HAL API"): the same operations as the plain API
 * the Spring Data REST way. Resources carry no {@code id} property; their identity is the {@code self} link.
 * Lists are {@code _embedded.<rel>} plus {@code page {size, totalElements, totalPages, number}}; listed items
 * carry their category inline (excerpt projection); an item links to its category by URI on POST/PUT.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.restbench.contract.ContractManifest#hal") // every variant of dialect hal in benchmarks.json
@ExtendWith(ContractEnvironment.class)
class HalApiContractTest {

    private static final String HAL = "application/hal+json";

    private final Http http;
    private final String tag = UUID.randomUUID().toString().substring(0, 8);

    HalApiContractTest(String variant) {
        this.http = new Http(ContractEnvironment.service(variant).baseUri());
    }

    // ---- helpers -------------------------------------------------------------------------------------------

    private Http.Request hal(String method, String path) {
        return http.request(method, path).accept(HAL);
    }

    private Http.Response get(String path) {
        return hal("GET", path).send();
    }

    private static Http.Response ok(Http.Response response, int status) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        if (status != 204) {
            assertThat(response.mediaType()).as("%s", response).isEqualTo(HAL);
        }
        return response;
    }

    private static long idOf(JsonNode resource) {
        String self = resource.path("_links").path("self").path("href").asText();
        assertThat(self).as("self link of %s", resource).isNotEmpty();
        String path = URI.create(self).getPath();
        return Long.parseLong(path.substring(path.lastIndexOf('/') + 1));
    }

    private static List<Long> ids(JsonNode page, String rel) {
        List<Long> ids = new ArrayList<>();
        page.path("_embedded").path(rel).forEach(resource -> ids.add(idOf(resource)));
        return ids;
    }

    private ObjectNode categoryBody(String suffix) {
        ObjectNode body = Http.JSON.createObjectNode();
        return body.put("code", "H-" + tag + "-" + suffix).put("name", "HAL " + suffix);
    }

    private ObjectNode itemBody(String suffix, long categoryId) {
        ObjectNode body = Http.JSON.createObjectNode();
        return body.put("sku", "H-" + tag + "-" + suffix).put("name", "HAL item " + suffix)
                .put("price", new BigDecimal("12.50")).put("stock", 3).put("description", "hal")
                .put("category", "/categories/" + categoryId);
    }

    private long createCategory(String suffix) {
        return idOf(ok(hal("POST", "/categories").json(categoryBody(suffix)).send(), 201).json());
    }

    private long createItem(String suffix, long categoryId) {
        return idOf(ok(hal("POST", "/items").json(itemBody(suffix, categoryId)).send(), 201).json());
    }

    private static void assertPage(JsonNode page, int number, int size) {
        assertThat(page.path("page").path("number").asInt()).as("%s", page.path("page")).isEqualTo(number);
        assertThat(page.path("page").path("size").asInt()).as("%s", page.path("page")).isEqualTo(size);
        long total = page.path("page").path("totalElements").asLong();
        assertThat(page.path("page").path("totalPages").asLong()).isEqualTo((total + size - 1) / size);
    }

    /** SDR answers a DELETE that accepts HAL with 200 and the deleted resource, otherwise 204: both are fine. */
    private static void assertDeleted(Http.Response response) {
        assertThat(response.status()).as("%s", response).isIn(200, 204);
    }

    private static void assertError(Http.Response response, int status, String mentioned) {
        assertThat(response.status()).as("%s", response).isEqualTo(status);
        if (mentioned != null) {
            assertThat(response.body()).as("%s", response).contains(mentioned);
        }
    }

    private static void assertCategoryInline(JsonNode item, long categoryId) {
        JsonNode category = item.path("category");
        assertThat(category.isObject()).as("category inline in %s", item).isTrue();
        assertThat(category.path("code").asText()).isNotEmpty();
        assertThat(category.path("updatedAt").asText()).isNotEmpty();
        if (categoryId <= 20) {
            assertThat(category.path("code").asText()).isEqualTo(String.format("CAT-%05d", categoryId));
        }
    }

    // ---- categories ----------------------------------------------------------------------------------------

    @Test
    void listsCategoriesPagedByIdWithDefaultsAndLimits() {
        JsonNode first = ok(get("/categories"), 200).json();
        assertPage(first, 0, 20);
        assertThat(ids(first, "categories")).hasSize(20).isSorted().startsWith(1L, 2L, 3L);
        assertThat(first.path("_links").path("self").isObject()).isTrue();
        JsonNode second = ok(get("/categories?page=1&size=5"), 200).json();
        assertPage(second, 1, 5);
        assertThat(ids(second, "categories")).containsExactly(6L, 7L, 8L, 9L, 10L);
        assertThat(second.path("_embedded").path("categories").get(0).path("code").asText()).isEqualTo("CAT-00006");
        JsonNode largest = ok(get("/categories?size=100"), 200).json();
        assertPage(largest, 0, 100);
        JsonNode past = ok(get("/categories?page=100000&size=100"), 200).json();
        assertThat(past.path("_embedded").path("categories")).isEmpty();
    }

    @Test
    void createsReadsUpdatesAndDeletesACategory() {
        Instant before = Instant.now().truncatedTo(ChronoUnit.MICROS);
        ObjectNode body = categoryBody("c");
        body.put("updatedAt", "1999-01-01T00:00:00Z");
        Http.Response created = ok(hal("POST", "/categories").json(body).send(), 201);
        Instant after = Instant.now();
        JsonNode category = created.json();
        long id = idOf(category);
        assertThat(category.path("code").asText()).isEqualTo("H-" + tag + "-c");
        assertThat(Instant.parse(category.path("updatedAt").asText())).isBetween(before, after);
        assertThat(created.header("Location").map(l -> URI.create(l).getPath())).hasValue("/categories/" + id);

        assertThat(ok(get("/categories/" + id), 200).json().path("name").asText()).isEqualTo("HAL c");
        JsonNode updated = ok(hal("PUT", "/categories/" + id).json(categoryBody("c2")).send(), 200).json();
        assertThat(updated.path("code").asText()).isEqualTo("H-" + tag + "-c2");
        assertThat(Instant.parse(updated.path("updatedAt").asText()))
                .isAfterOrEqualTo(Instant.parse(category.path("updatedAt").asText()));
        assertThat(ok(get("/categories/" + id), 200).json().path("code").asText()).isEqualTo("H-" + tag + "-c2");

        assertDeleted(hal("DELETE", "/categories/" + id).send());
        assertError(get("/categories/" + id), 404, null);
        assertError(hal("DELETE", "/categories/" + id).send(), 404, null);
    }

    @Test
    void refusesDuplicateCodesAndDeletingACategoryWithItems() {
        ObjectNode duplicate = categoryBody("dup").put("code", "CAT-00001");
        assertError(hal("POST", "/categories").json(duplicate).send(), 409, null);
        assertError(hal("DELETE", "/categories/1").send(), 409, null);
        assertThat(get("/categories/1").status()).isEqualTo(200);
    }

    /** Duplicates are found by the unique constraint, so racing creators get one 201 and 409s, never a 500. */
    @Test
    void refusesConcurrentDuplicatesWith409() throws Exception {
        ObjectNode body = categoryBody("race");
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Http.Response>> calls = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                calls.add(pool.submit(() -> hal("POST", "/categories").json(body).send()));
            }
            List<Integer> statuses = new ArrayList<>();
            for (Future<Http.Response> call : calls) {
                statuses.add(call.get().status());
            }
            assertThat(statuses).as("statuses of 6 concurrent identical creates").containsOnly(201, 409)
                    .containsOnlyOnce(201);
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- items ---------------------------------------------------------------------------------------------

    @Test
    void readsOneItemWithItsCategoryThroughTheProjection() {
        JsonNode item = ok(get("/items/21?projection=itemWithCategory"), 200).json();
        assertThat(item.path("sku").asText()).isEqualTo("SKU-0000021");
        assertCategoryInline(item, 1);
        JsonNode plain = ok(get("/items/21"), 200).json();
        assertThat(plain.path("sku").asText()).isEqualTo("SKU-0000021");
        assertThat(plain.path("_links").path("category").path("href").asText()).isNotEmpty();
    }

    @Test
    void listsItemsWithTheirCategoriesInline() {
        JsonNode page = ok(get("/items?page=3&size=7"), 200).json();
        assertPage(page, 3, 7);
        assertThat(ids(page, "items")).containsExactly(22L, 23L, 24L, 25L, 26L, 27L, 28L);
        page.path("_embedded").path("items").forEach(item -> assertThat(item.path("category").isObject())
                .as("category inline in %s", item).isTrue());
        assertCategoryInline(page.path("_embedded").path("items").get(0), 2);
        JsonNode defaults = ok(get("/items"), 200).json();
        assertPage(defaults, 0, 20);
        assertThat(ids(defaults, "items")).hasSize(20).isSorted().startsWith(1L);
    }

    @Test
    void searchesItemsByCategory() {
        JsonNode page = ok(get("/items/search/byCategory?categoryId=2&size=5"), 200).json();
        assertPage(page, 0, 5);
        assertThat(ids(page, "items")).containsExactly(2L, 22L, 42L, 62L, 82L);
        assertThat(page.path("page").path("totalElements").asLong()).isEqualTo(25);
        page.path("_embedded").path("items").forEach(item -> assertCategoryInline(item, 2));
        JsonNode unknown = ok(get("/items/search/byCategory?categoryId=987654321"), 200).json();
        assertThat(unknown.path("page").path("totalElements").asLong()).isZero();
    }

    @Test
    void createsUpdatesAndDeletesAnItemWithACategoryLink() {
        long first = createCategory("i1");
        long second = createCategory("i2");
        Instant before = Instant.now().truncatedTo(ChronoUnit.MICROS);
        Http.Response created = ok(hal("POST", "/items").json(itemBody("item", first)).send(), 201);
        Instant after = Instant.now();
        long id = idOf(created.json());
        assertThat(created.json().path("price").decimalValue()).isEqualByComparingTo("12.5");
        assertThat(Instant.parse(created.json().path("updatedAt").asText())).isBetween(before, after);
        assertThat(created.header("Location").map(l -> URI.create(l).getPath())).hasValue("/items/" + id);
        JsonNode read = ok(get("/items/" + id + "?projection=itemWithCategory"), 200).json();
        assertThat(read.path("category").path("code").asText()).isEqualTo("H-" + tag + "-i1");

        JsonNode updated = ok(hal("PUT", "/items/" + id).json(itemBody("item2", second).put("stock", 7)).send(), 200)
                .json();
        assertThat(updated.path("sku").asText()).isEqualTo("H-" + tag + "-item2");
        assertThat(updated.path("stock").asInt()).isEqualTo(7);
        JsonNode moved = ok(get("/items/" + id + "?projection=itemWithCategory"), 200).json();
        assertThat(moved.path("category").path("code").asText()).isEqualTo("H-" + tag + "-i2");
        JsonNode listed = ok(get("/items/search/byCategory?categoryId=" + second), 200).json();
        assertThat(ids(listed, "items")).containsExactly(id);

        assertDeleted(hal("DELETE", "/items/" + id).send());
        assertError(get("/items/" + id), 404, null);
        assertDeleted(hal("DELETE", "/categories/" + second).send());
    }

    @Test
    void refusesDuplicateSkusAndInvalidItems() {
        long category = createCategory("v");
        assertError(hal("POST", "/items").json(itemBody("dup", category).put("sku", "SKU-0000001")).send(), 409, null);
        assertError(hal("POST", "/items").json(itemBody("neg", category).put("price", -1)).send(), 400, "price");
        assertError(hal("POST", "/items").json(itemBody("dec", category).put("price", new BigDecimal("1.234")))
                .send(), 400, "price");
        assertError(hal("POST", "/items").json(itemBody("stock", category).put("stock", -1)).send(), 400, "stock");
        assertError(hal("POST", "/items").json(itemBody("blank", category).put("sku", " ")).send(), 400, "sku");
        assertError(hal("POST", "/items").json(itemBody("long", category).put("description", "d".repeat(8193)))
                .send(), 400, "description");
        ObjectNode noCategory = itemBody("nocat", category);
        noCategory.remove("category");
        assertError(hal("POST", "/items").json(noCategory).send(), 400, "category");
        assertError(hal("POST", "/categories").json("{}").send(), 400, "code");
        long item = createItem("put", category);
        assertError(hal("PUT", "/items/" + item).json(itemBody("put", category).put("price", -5)).send(), 400,
                "price");
    }

    @Test
    void refusesBadInput() {
        assertError(hal("POST", "/categories").json("{\"code\": ").send(), 400, null);
        assertError(hal("POST", "/items").json(itemBody("type", 1).put("price", "abc")).send(), 400, null);
        assertError(hal("POST", "/items").json(itemBody("type", 1).put("stock", 1.5)).send(), 400, null);
        assertError(get("/items/abc"), 400, null);
        assertError(get("/items/search/byCategory?categoryId=abc"), 400, null);
        assertError(get("/items/987654321"), 404, null);
        for (String query : List.of("page=-1", "size=0", "size=-1", "size=101", "size=1000000", "page=abc",
                "size=1.5")) {
            assertError(get("/items?" + query), 400, null);
            assertError(get("/categories?" + query), 400, null);
            assertError(get("/items/search/byCategory?categoryId=1&" + query), 400, null);
        }
        byte[] big = itemBody("big", 1).put("description", "x".repeat(70 * 1024)).toString()
                .getBytes(StandardCharsets.UTF_8);
        assertError(hal("POST", "/items").body(big, "application/json").send(), 413, null);
        assertError(hal("POST", "/items").body(big, "application/json").chunked().send(), 413, null);
        assertError(hal("POST", "/categories").body(categoryBody("t").toString().getBytes(StandardCharsets.UTF_8),
                "text/plain").send(), 415, null);
        assertError(http.request("GET", "/items/1").accept("text/csv").send(), 406, null);
        Http.Response wrongMethod = hal("DELETE", "/categories").send();
        assertError(wrongMethod, 405, null);
        assertThat(wrongMethod.header("Allow")).as("%s", wrongMethod).isPresent();
    }

    // ---- the cache (no database): a plain @RestController beside the repositories, plain JSON as in the plain API

    @Test
    void readsCacheValuesAsPlainJson() {
        for (String key : List.of("key0", "key999", "key-" + tag, "k".repeat(64))) {
            Http.Response response = http.request("GET", "/cache/" + key).accept("application/json").send();
            assertThat(response.status()).as("%s", response).isEqualTo(200);
            assertThat(response.mediaType()).as("%s", response).isEqualTo("application/json");
            assertThat(response.json().path("key").asText()).as("%s", response).isEqualTo(key);
            assertThat(response.json().path("value").asText()).as("%s", response).isEqualTo("value-" + key);
        }
        assertThat(http.request("GET", "/cache/key%2D7").send().json().path("key").asText()).isEqualTo("key-7");
    }

    @Test
    void refusesCacheKeysOutsideTheContract() {
        for (String key : List.of("k".repeat(65), "a.b", "a%20b", "%C3%A9t%C3%A9", "a+b", "a~b", "a%00b")) {
            Http.Response response = http.request("GET", "/cache/" + key).send();
            assertError(response, 400, null);
            assertThat(response.mediaType()).as("%s", response).isEqualTo("application/problem+json");
        }
        Http.Response post = http.request("POST", "/cache/key1").json(categoryBody("cache")).send();
        assertError(post, 405, null);
        assertThat(post.header("Allow").orElse("")).as("%s", post).contains("GET");
        assertError(http.request("GET", "/cache/key1").accept("text/csv").send(), 406, null);
    }
}
