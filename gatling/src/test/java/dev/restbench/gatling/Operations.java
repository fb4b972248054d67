package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import java.util.function.Function;

/**
 * The API operations the scenarios are written in. Each dialect (dialect.PlainApi, dialect.HalApi) is the one place
 * that maps them to HTTP requests and checks. Request names are the operation names, the same in every dialect, so
 * reports of different variants line up.
 *
 * <p>Inputs come from session attributes: reads use the dataset ids and pages fed by {@link Feeders} (ids that
 * always exist), writes take drafts computed from the session. Creations save the new id under
 * {@link #NEW_ITEM_ID} / {@link #NEW_CATEGORY_ID}; update and delete act on that id, so the run only ever modifies
 * rows it created itself.
 */
public interface Operations {

    String ITEM_ID = "itemId";
    String CATEGORY_ID = "categoryId";
    String ITEM_PAGE = "itemPage";
    String CATEGORY_PAGE = "categoryPage";
    String NEW_ITEM_ID = "newItemId";
    String NEW_CATEGORY_ID = "newCategoryId";
    String CACHE_KEY = "cacheKey";

    /** Page size of every list request (the APIs' default). */
    int PAGE_SIZE = 20;

    record CategoryDraft(String code, String name) {
    }

    record ItemDraft(String sku, String name, String price, int stock, String description, long categoryId) {
    }

    /** Base URL, Accept header and connection handling for this dialect. */
    HttpProtocolBuilder protocol(String baseUrl);

    /** A page of items ({@link #ITEM_PAGE}), each with its category. */
    ChainBuilder listItems();

    /** One dataset item ({@link #ITEM_ID}) with its category. */
    ChainBuilder getItem();

    /** A page of categories ({@link #CATEGORY_PAGE}). */
    ChainBuilder listCategories();

    /** One dataset category ({@link #CATEGORY_ID}). */
    ChainBuilder getCategory();

    /** The first page of items whose category is {@link #CATEGORY_ID}, filtered on the item collection. */
    ChainBuilder itemsByCategory();

    /** The first page of the items of category {@link #CATEGORY_ID}, reached from the category. */
    ChainBuilder categoryItems();

    /** One value of the in-process cache ({@link #CACHE_KEY}): the no-database workload. */
    ChainBuilder getCacheValue();

    /**
     * The cache read both dialects send (the endpoint is the same plain JSON in both). Checked by status and a
     * substring, not parsed: on this endpoint the load generator is the likeliest bottleneck (the contract tests
     * check the body).
     */
    static ChainBuilder cacheValueRequest() {
        return exec(http("get cache value").get("/cache/#{" + CACHE_KEY + "}")
                .check(status().is(200), substring("value-")));
    }

    ChainBuilder createCategory(Function<Session, CategoryDraft> draft);

    ChainBuilder updateCategory(Function<Session, CategoryDraft> draft);

    ChainBuilder deleteCategory();

    ChainBuilder createItem(Function<Session, ItemDraft> draft);

    ChainBuilder updateItem(Function<Session, ItemDraft> draft);

    ChainBuilder deleteItem();

    static Operations of(BenchConfig.Dialect dialect) {
        return switch (dialect) {
            case PLAIN -> new dev.restbench.gatling.dialect.PlainApi();
            case HAL -> new dev.restbench.gatling.dialect.HalApi();
        };
    }
}
