package dev.restbench.gatling.dialect;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.http.HttpDsl.headerRegex;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import dev.restbench.gatling.Json;
import dev.restbench.gatling.Operations;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import java.util.function.Function;

/**
 * The HAL API (spring-data-rest): docs/ARCHITECTURE.md "The HAL API". Listed items carry their category through the
 * {@code itemWithCategory} excerpt projection, one item asks for that projection explicitly, the category filter is
 * the {@code byCategory} search, bodies reference the category as an association link, and created ids are parsed
 * from the {@code Location} header (Spring Data REST does not expose ids in bodies). Updates and deletes accept 200
 * or 204: Spring Data REST answers with the resource (200) when the request has an Accept header, which these
 * requests always send.
 */
public final class HalApi implements Operations {

    private static final String HAL_JSON = "application/hal+json";
    private static final String JSON = "application/json";
    private static final String PROJECTION = "projection=itemWithCategory";

    @Override
    public HttpProtocolBuilder protocol(String baseUrl) {
        return http.baseUrl(baseUrl).acceptHeader(HAL_JSON + ", " + JSON);
    }

    @Override
    public ChainBuilder listItems() {
        return exec(http("list items").get("/items?page=#{" + ITEM_PAGE + "}&size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$._embedded.items[0].category").exists()));
    }

    @Override
    public ChainBuilder getItem() {
        return exec(http("get item").get("/items/#{" + ITEM_ID + "}?" + PROJECTION)
                .check(status().is(200), jsonPath("$.category").exists()));
    }

    @Override
    public ChainBuilder getCacheValue() {
        return Operations.cacheValueRequest();
    }

    @Override
    public ChainBuilder listCategories() {
        return exec(http("list categories").get("/categories?page=#{" + CATEGORY_PAGE + "}&size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$._embedded.categories[0].code").exists()));
    }

    @Override
    public ChainBuilder getCategory() {
        return exec(http("get category").get("/categories/#{" + CATEGORY_ID + "}")
                .check(status().is(200), jsonPath("$.code").exists()));
    }

    @Override
    public ChainBuilder itemsByCategory() {
        return exec(http("items by category")
                .get("/items/search/byCategory?categoryId=#{" + CATEGORY_ID + "}&size=" + PAGE_SIZE + "&" + PROJECTION)
                .check(status().is(200), jsonPath("$._embedded.items[0].category").exists()));
    }

    /**
     * The HAL contract has no category → items association resource, so "a category's items" is the same
     * {@code byCategory} search as {@link #itemsByCategory()}; it stays a separate operation (and request name) so
     * the scenario is the same in both dialects.
     */
    @Override
    public ChainBuilder categoryItems() {
        return exec(http("category items")
                .get("/items/search/byCategory?categoryId=#{" + CATEGORY_ID + "}&size=" + PAGE_SIZE + "&" + PROJECTION)
                .check(status().is(200), jsonPath("$._embedded.items[0].category").exists()));
    }

    @Override
    public ChainBuilder createCategory(Function<Session, CategoryDraft> draft) {
        return exec(http("create category").post("/categories")
                .header("Content-Type", JSON)
                .body(StringBody(session -> categoryJson(draft.apply(session))))
                .check(status().is(201), headerRegex("Location", "/categories/(\\d+)$").transform(Long::valueOf).saveAs(NEW_CATEGORY_ID)));
    }

    @Override
    public ChainBuilder updateCategory(Function<Session, CategoryDraft> draft) {
        return exec(http("update category").put("/categories/#{" + NEW_CATEGORY_ID + "}")
                .header("Content-Type", JSON)
                .body(StringBody(session -> categoryJson(draft.apply(session))))
                .check(status().in(200, 204)));
    }

    @Override
    public ChainBuilder deleteCategory() {
        return exec(http("delete category").delete("/categories/#{" + NEW_CATEGORY_ID + "}")
                .check(status().in(200, 204)));
    }

    @Override
    public ChainBuilder createItem(Function<Session, ItemDraft> draft) {
        return exec(http("create item").post("/items")
                .header("Content-Type", JSON)
                .body(StringBody(session -> itemJson(draft.apply(session))))
                .check(status().is(201), headerRegex("Location", "/items/(\\d+)$").transform(Long::valueOf).saveAs(NEW_ITEM_ID)));
    }

    @Override
    public ChainBuilder updateItem(Function<Session, ItemDraft> draft) {
        return exec(http("update item").put("/items/#{" + NEW_ITEM_ID + "}")
                .header("Content-Type", JSON)
                .body(StringBody(session -> itemJson(draft.apply(session))))
                .check(status().in(200, 204)));
    }

    @Override
    public ChainBuilder deleteItem() {
        return exec(http("delete item").delete("/items/#{" + NEW_ITEM_ID + "}")
                .check(status().in(200, 204)));
    }

    private static String categoryJson(CategoryDraft draft) {
        return "{\"code\":" + Json.quote(draft.code()) + ",\"name\":" + Json.quote(draft.name()) + "}";
    }

    private static String itemJson(ItemDraft draft) {
        return "{\"sku\":" + Json.quote(draft.sku())
                + ",\"name\":" + Json.quote(draft.name())
                + ",\"price\":" + draft.price()
                + ",\"stock\":" + draft.stock()
                + ",\"description\":" + Json.quote(draft.description())
                + ",\"category\":\"/categories/" + draft.categoryId() + "\"}";
    }
}
