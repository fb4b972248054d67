package dev.restbench.quarkus.data;

import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.data.UnknownCategoryException;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Items over the reactive pool: bench-plain-jdbc's ItemRepository statement for statement (jersey's SQL with $n
 * placeholders). Every item comes back with its category from the same statement (a join; writes use a
 * data-modifying CTE joined to category), so no endpoint issues one query per item.
 */
@Singleton
public class ReactiveItemRepository {

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
    private static final String RETURNING = " RETURNING id, sku, name, price, stock, description, category_id, updated_at)"
            + " SELECT " + Rows.ITEM_WITH_CATEGORY + " FROM saved i JOIN category c ON c.id = i.category_id";
    private static final String INSERT = "WITH saved AS (INSERT INTO item"
            + " (sku, name, price, stock, description, category_id, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)"
            + RETURNING;
    private static final String UPDATE = "WITH saved AS (UPDATE item SET sku = $1, name = $2, price = $3, stock = $4,"
            + " description = $5, category_id = $6, updated_at = $7 WHERE id = $8" + RETURNING;
    private static final String DELETE = "DELETE FROM item WHERE id = $1";

    private final Pool pool;

    @Inject
    public ReactiveItemRepository(Pool pool) {
        this.pool = pool;
    }

    /** 1 statement. */
    public Uni<Optional<Item>> findById(long id) {
        return pool.preparedQuery(FIND_BY_ID).execute(Tuple.of(id)).map(rows -> Rows.first(rows, Rows::item));
    }

    /** 2 statements on one connection: count, then content; {@code categoryId} empty = all items. */
    public Uni<Page<Item>> findPage(OptionalLong categoryId, PageRequest request) {
        return pool.withConnection(connection -> {
            Uni<OptionalLong> count = categoryId.isPresent()
                    ? count(connection, COUNT_BY_CATEGORY, Tuple.of(categoryId.getAsLong()))
                    : count(connection, COUNT_ALL, Tuple.tuple());
            return count.flatMap(total -> content(connection, categoryId, request)
                    .map(content -> Page.of(content, request, total.orElse(0))));
        });
    }

    /** 2 statements (a count that also proves the category exists, then content); empty if no such category. */
    public Uni<Optional<Page<Item>>> findPageOfExistingCategory(long categoryId, PageRequest request) {
        return pool.withConnection(connection -> count(connection, COUNT_IN_EXISTING_CATEGORY, Tuple.of(categoryId))
                .flatMap(total -> total.isEmpty()
                        ? Uni.createFrom().item(Optional.<Page<Item>>empty())
                        : content(connection, OptionalLong.of(categoryId), request)
                                .map(content -> Optional.of(Page.of(content, request, total.getAsLong())))));
    }

    /** 1 statement. */
    public Uni<Item> insert(ItemRequest request, Instant now) {
        return pool.preparedQuery(INSERT).execute(Tuple.from(Arrays.asList(values(request, now))))
                .map(rows -> Rows.first(rows, Rows::item).orElseThrow())
                .onFailure().transform(e -> translate(e, request));
    }

    /** 1 statement; empty when there is no such item. */
    public Uni<Optional<Item>> update(long id, ItemRequest request, Instant now) {
        Object[] values = Arrays.copyOf(values(request, now), 8);
        values[7] = id;
        return pool.preparedQuery(UPDATE).execute(Tuple.from(Arrays.asList(values)))
                .map(rows -> Rows.first(rows, Rows::item))
                .onFailure().transform(e -> translate(e, request));
    }

    /** 1 statement; false when there is no such item. */
    public Uni<Boolean> delete(long id) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(id)).map(rows -> rows.rowCount() == 1);
    }

    private static Uni<OptionalLong> count(SqlConnection connection, String sql, Tuple arguments) {
        return connection.preparedQuery(sql).execute(arguments).map(Rows::count);
    }

    private static Uni<List<Item>> content(SqlConnection connection, OptionalLong categoryId, PageRequest request) {
        Tuple arguments = categoryId.isPresent()
                ? Tuple.of(categoryId.getAsLong(), (long) request.size(), request.offset())
                : Tuple.of((long) request.size(), request.offset());
        return connection.preparedQuery(categoryId.isPresent() ? PAGE_BY_CATEGORY : PAGE_ALL).execute(arguments)
                .map(rows -> Rows.all(rows, Rows::item));
    }

    /** $1..$7 of INSERT and UPDATE. */
    private static Object[] values(ItemRequest request, Instant now) {
        return new Object[] {request.sku(), request.name(), request.price(), Math.toIntExact(request.stock()),
                request.description(), request.categoryId(), Rows.timestamp(now)};
    }

    private static Throwable translate(Throwable e, ItemRequest request) {
        if (PgErrors.is(e, PgErrors.UNIQUE_VIOLATION, "item_sku_key")) {
            return new DataConflictException("an item with sku '" + request.sku() + "' already exists");
        }
        if (PgErrors.is(e, PgErrors.FOREIGN_KEY_VIOLATION, "item_category_fk")) {
            return new UnknownCategoryException(request.categoryId());
        }
        return e;
    }
}
