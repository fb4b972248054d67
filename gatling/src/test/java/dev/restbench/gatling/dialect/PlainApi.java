package dev.restbench.gatling.dialect;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import dev.restbench.gatling.Json;
import dev.restbench.gatling.Operations;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import java.util.function.Function;

/**
 * The plain JSON API (jersey, spring-mvc): docs/ARCHITECTURE.md "The plain API". Items always carry their category
 * inline, requests reference the category by {@code categoryId}, created ids come back in the body.
 */
public final class PlainApi implements Operations {

    private static final String JSON = "application/json";

    @Override
    public HttpProtocolBuilder protocol(String baseUrl) {
        return http.baseUrl(baseUrl).acceptHeader(JSON);
    }

    @Override
    public ChainBuilder listItems() {
        return exec(http("list items").get("/items?page=#{" + ITEM_PAGE + "}&size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$.content[0].category.id").exists()));
    }

    @Override
    public ChainBuilder getItem() {
        return exec(http("get item").get("/items/#{" + ITEM_ID + "}")
                .check(status().is(200), jsonPath("$.category.id").exists()));
    }

    @Override
    public ChainBuilder getCacheValue() {
        return Operations.cacheValueRequest();
    }

    @Override
    public ChainBuilder listCategories() {
        return exec(http("list categories").get("/categories?page=#{" + CATEGORY_PAGE + "}&size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$.content[0].code").exists()));
    }

    @Override
    public ChainBuilder getCategory() {
        return exec(http("get category").get("/categories/#{" + CATEGORY_ID + "}")
                .check(status().is(200), jsonPath("$.code").exists()));
    }

    @Override
    public ChainBuilder itemsByCategory() {
        return exec(http("items by category").get("/items?categoryId=#{" + CATEGORY_ID + "}&size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$.content[0].category.id").exists()));
    }

    @Override
    public ChainBuilder categoryItems() {
        return exec(http("category items").get("/categories/#{" + CATEGORY_ID + "}/items?size=" + PAGE_SIZE)
                .check(status().is(200), jsonPath("$.content[0].category.id").exists()));
    }

    @Override
    public ChainBuilder createCategory(Function<Session, CategoryDraft> draft) {
        return exec(http("create category").post("/categories")
                .header("Content-Type", JSON)
                .body(StringBody(session -> categoryJson(draft.apply(session))))
                .check(status().is(201), jsonPath("$.id").ofLong().saveAs(NEW_CATEGORY_ID)));
    }

    @Override
    public ChainBuilder updateCategory(Function<Session, CategoryDraft> draft) {
        return exec(http("update category").put("/categories/#{" + NEW_CATEGORY_ID + "}")
                .header("Content-Type", JSON)
                .body(StringBody(session -> categoryJson(draft.apply(session))))
                .check(status().is(200)));
    }

    @Override
    public ChainBuilder deleteCategory() {
        return exec(http("delete category").delete("/categories/#{" + NEW_CATEGORY_ID + "}")
                .check(status().is(204)));
    }

    @Override
    public ChainBuilder createItem(Function<Session, ItemDraft> draft) {
        return exec(http("create item").post("/items")
                .header("Content-Type", JSON)
                .body(StringBody(session -> itemJson(draft.apply(session))))
                .check(status().is(201), jsonPath("$.id").ofLong().saveAs(NEW_ITEM_ID)));
    }

    @Override
    public ChainBuilder updateItem(Function<Session, ItemDraft> draft) {
        return exec(http("update item").put("/items/#{" + NEW_ITEM_ID + "}")
                .header("Content-Type", JSON)
                .body(StringBody(session -> itemJson(draft.apply(session))))
                .check(status().is(200)));
    }

    @Override
    public ChainBuilder deleteItem() {
        return exec(http("delete item").delete("/items/#{" + NEW_ITEM_ID + "}")
                .check(status().is(204)));
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
                + ",\"categoryId\":" + draft.categoryId() + "}";
    }
}
