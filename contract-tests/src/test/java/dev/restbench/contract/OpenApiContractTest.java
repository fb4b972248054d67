package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The validator itself: it must accept the documented shapes and reject deviations, or the suites prove nothing. */
class OpenApiContractTest {

    private final OpenApiContract contract = OpenApiContract.get();

    private static ObjectNode category() {
        ObjectNode category = Http.JSON.createObjectNode();
        category.put("id", 1).put("code", "CAT-00001").put("name", "Category 1")
                .put("updatedAt", "2026-01-01T00:00:00.123456Z");
        return category;
    }

    private static ObjectNode item() {
        ObjectNode item = Http.JSON.createObjectNode();
        item.put("id", 7).put("sku", "SKU-0000007").put("name", "Item 7").put("price", 12.57).put("stock", 3)
                .putNull("description");
        item.set("category", category());
        item.put("updatedAt", "2026-01-01T00:00:00Z");
        return item;
    }

    private static Http.Response response(String method, String path, int status, String contentType, JsonNode body) {
        return new Http.Response(method, path, status, Map.of("Content-Type", List.of(contentType)), body.toString());
    }

    @Test
    void acceptsTheDocumentedShapes() {
        assertThat(contract.validate("#/components/schemas/Category", category())).isEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item())).isEmpty();
        ObjectNode page = Http.JSON.createObjectNode();
        page.putArray("content").add(item()).add(item().put("description", "text"));
        page.put("page", 0).put("size", 20).put("totalElements", 2).put("totalPages", 1);
        contract.assertConforms("GET", "/items", response("GET", "/items", 200, "application/json", page));
        ObjectNode problem = Http.JSON.createObjectNode();
        problem.put("type", "about:blank").put("title", "Bad Request").put("status", 400).put("detail", "price")
                .put("instance", "/items");
        problem.putArray("errors").addObject().put("field", "price").put("message", "must be at least 0");
        contract.assertConforms("POST", "/items",
                response("POST", "/items", 400, "application/problem+json; charset=utf-8", problem));
    }

    @Test
    void rejectsDeviations() {
        assertThat(contract.validate("#/components/schemas/Category", category().without("updatedAt"))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Category", category().put("updatedAt", "yesterday")))
                .isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Category", category().put("_links", "x"))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item().put("price", 1.234))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item().put("price", -1))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item().without("description"))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item().without("category"))).isNotEmpty();
        assertThat(contract.validate("#/components/schemas/Item", item().put("id", "7"))).isNotEmpty();
        ObjectNode page = Http.JSON.createObjectNode();
        page.putArray("content").add(category());
        page.put("page", 0).put("size", 20).put("totalElements", 1);
        assertThat(contract.validate("#/components/schemas/CategoryPage", page)).isNotEmpty();
        page.put("totalPages", 1).put("number", 0);
        assertThat(contract.validate("#/components/schemas/CategoryPage", page)).isNotEmpty();
        page.remove("number");
        assertThat(contract.validate("#/components/schemas/CategoryPage", page)).isEmpty();
    }

    @Test
    void rejectsUndocumentedStatusesAndMediaTypes() {
        assertThatThrownBy(() -> contract.assertConforms("GET", "/items/{id}",
                response("GET", "/items/1", 500, "application/problem+json", Http.JSON.createObjectNode())))
                .hasMessageContaining("not documented");
        assertThatThrownBy(() -> contract.assertConforms("GET", "/items/{id}",
                response("GET", "/items/1", 200, "application/hal+json", item())))
                .hasMessageContaining("Content-Type");
        assertThatThrownBy(() -> contract.assertConforms("PATCH", "/items/{id}",
                response("PATCH", "/items/1", 200, "application/json", item())))
                .hasMessageContaining("405");
        assertThatThrownBy(() -> contract.assertConforms("POST", "/items",
                response("POST", "/items", 201, "application/json", item())))
                .hasMessageContaining("Location");
    }
}
