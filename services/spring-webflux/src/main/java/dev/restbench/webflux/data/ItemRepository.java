package dev.restbench.webflux.data;

import dev.restbench.webflux.api.ItemRequest;
import dev.restbench.webflux.web.ConflictException;
import dev.restbench.webflux.web.PageResponse;
import dev.restbench.webflux.web.Paging;
import dev.restbench.webflux.web.UnknownCategoryException;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;

/**
 * Items through Spring's {@link DatabaseClient}, jersey's SQL: every item comes back with its category from the same
 * statement (a join; writes use a data-modifying CTE joined to category), so no endpoint issues one query per item.
 */
@Repository
public class ItemRepository {

    private static final String FROM_ITEM_JOIN_CATEGORY = " FROM item i JOIN category c ON c.id = i.category_id";
    private static final String FIND_BY_ID =
            "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY + " WHERE i.id = $1";
    private static final String COUNT_ALL = "SELECT count(*) FROM item";
    private static final String COUNT_BY_CATEGORY = "SELECT count(*) FROM item WHERE category_id = $1";
    /** No row when the category does not exist, so "404 or count" is one statement. */
    private static final String COUNT_IN_EXISTING_CATEGORY = "SELECT count(i.id) FROM category c"
            + " LEFT JOIN item i ON i.category_id = c.id WHERE c.id = $1 GROUP BY c.id";
    private static final String PAGE_ALL = "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " ORDER BY i.id LIMIT $1 OFFSET $2";
    private static final String PAGE_BY_CATEGORY = "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " WHERE i.category_id = $1 ORDER BY i.id LIMIT $2 OFFSET $3";
    private static final String RETURNING = " RETURNING id, sku, name, price, stock, description, category_id,"
            + " updated_at) SELECT " + Rows.ITEM_WITH_CATEGORY + " FROM saved i JOIN category c ON c.id = i.category_id";
    private static final String INSERT = "WITH saved AS (INSERT INTO item"
            + " (sku, name, price, stock, description, category_id, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            + RETURNING;
    private static final String UPDATE = "WITH saved AS (UPDATE item SET sku = $1, name = $2, price = $3, stock = $4,"
            + " description = $5, category_id = $6, updated_at = $7 WHERE id = $8" + RETURNING;
    private static final String DELETE = "DELETE FROM item WHERE id = $1";

    private final DatabaseClient db;

    public ItemRepository(DatabaseClient db) {
        this.db = db;
    }

    /** 1 statement; empty when there is no such item. */
    public Mono<Item> findById(long id) {
        return db.sql(FIND_BY_ID).bind(0, id).map(Rows::item).one();
    }

    /** 2 statements: count, then content; {@code categoryId} null = all items. */
    public Mono<PageResponse<Item>> findPage(Long categoryId, Paging paging) {
        Mono<Long> count = categoryId == null
                ? db.sql(COUNT_ALL).map(Rows::count).one()
                : db.sql(COUNT_BY_CATEGORY).bind(0, categoryId).map(Rows::count).one();
        return count.flatMap(total -> content(categoryId, paging)
                .map(content -> PageResponse.of(content, paging, total)));
    }

    /** 2 statements (a count that also proves the category exists, then content); empty if no such category. */
    public Mono<PageResponse<Item>> findPageOfExistingCategory(long categoryId, Paging paging) {
        return db.sql(COUNT_IN_EXISTING_CATEGORY).bind(0, categoryId).map(Rows::count).one()
                .flatMap(total -> content(categoryId, paging)
                        .map(content -> PageResponse.of(content, paging, total)));
    }

    /** 1 statement. */
    public Mono<Item> insert(ItemRequest request, Instant now) {
        return bind(db.sql(INSERT), request, now).map(Rows::item).one()
                .onErrorMap(e -> translated(e, request) != null, e -> translated(e, request));
    }

    /** 1 statement; empty when there is no such item. */
    public Mono<Item> update(long id, ItemRequest request, Instant now) {
        return bind(db.sql(UPDATE), request, now).bind(7, id).map(Rows::item).one()
                .onErrorMap(e -> translated(e, request) != null, e -> translated(e, request));
    }

    /** 1 statement; false when there is no such item. */
    public Mono<Boolean> delete(long id) {
        return db.sql(DELETE).bind(0, id).fetch().rowsUpdated().map(rows -> rows == 1);
    }

    private Mono<List<Item>> content(Long categoryId, Paging paging) {
        DatabaseClient.GenericExecuteSpec spec = categoryId == null
                ? db.sql(PAGE_ALL).bind(0, paging.size()).bind(1, paging.offset())
                : db.sql(PAGE_BY_CATEGORY).bind(0, categoryId).bind(1, paging.size()).bind(2, paging.offset());
        return spec.map(Rows::item).all().collectList();
    }

    private static DatabaseClient.GenericExecuteSpec bind(DatabaseClient.GenericExecuteSpec spec, ItemRequest request,
            Instant now) {
        spec = spec.bind(0, request.sku()).bind(1, request.name())
                // Validation allowed at most two decimals; scale 2 is what numeric(10,2) stores and returns.
                .bind(2, request.price().setScale(2, RoundingMode.UNNECESSARY))
                .bind(3, request.stock());
        spec = request.description() == null ? spec.bindNull(4, String.class) : spec.bind(4, request.description());
        return spec.bind(5, request.categoryId()).bind(6, Rows.timestamp(now));
    }

    private static RuntimeException translated(Throwable e, ItemRequest request) {
        if (SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION, "item_sku_key")) {
            return new ConflictException("another resource already has this sku", "sku");
        }
        if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION, "item_category_fk")) {
            return new UnknownCategoryException(request.categoryId());
        }
        return null;
    }
}
