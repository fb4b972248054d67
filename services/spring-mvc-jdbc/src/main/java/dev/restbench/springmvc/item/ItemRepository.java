package dev.restbench.springmvc.item;

import dev.restbench.springmvc.category.Category;
import dev.restbench.springmvc.jdbc.Postgres;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Items through Spring's {@link JdbcClient}, with jersey's SQL text (shared/plain-jdbc ItemRepository): every item
 * comes back with its category from the same statement (a join; writes a data-modifying CTE joined to category),
 * so no endpoint issues one query per item, and each method is one statement.
 */
@Repository
public class ItemRepository {

    private static final String ITEM_WITH_CATEGORY = """
            i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
            c.id AS category_id, c.code AS category_code, c.name AS category_name,
            c.updated_at AS category_updated_at""";
    private static final String FROM_ITEM_JOIN_CATEGORY = " FROM item i JOIN category c ON c.id = i.category_id";
    private static final String FIND_BY_ID =
            "SELECT " + ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY + " WHERE i.id = ?";
    private static final String COUNT_ALL = "SELECT count(*) FROM item";
    private static final String COUNT_BY_CATEGORY = "SELECT count(*) FROM item WHERE category_id = ?";
    /** No row when the category does not exist, so "404 or count" is one statement. */
    private static final String COUNT_IN_EXISTING_CATEGORY = "SELECT count(i.id) FROM category c"
            + " LEFT JOIN item i ON i.category_id = c.id WHERE c.id = ? GROUP BY c.id";
    private static final String PAGE_ALL = "SELECT " + ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String PAGE_BY_CATEGORY = "SELECT " + ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " WHERE i.category_id = ? ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String RETURNING = " RETURNING id, sku, name, price, stock, description, category_id,"
            + " updated_at) SELECT " + ITEM_WITH_CATEGORY + " FROM saved i JOIN category c ON c.id = i.category_id";
    private static final String INSERT = "WITH saved AS (INSERT INTO item"
            + " (sku, name, price, stock, description, category_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            + RETURNING;
    private static final String UPDATE = "WITH saved AS (UPDATE item SET sku = ?, name = ?, price = ?, stock = ?,"
            + " description = ?, category_id = ?, updated_at = ? WHERE id = ?" + RETURNING;
    private static final String DELETE = "DELETE FROM item WHERE id = ?";

    private static final RowMapper<Item> ROW = (rs, row) -> new Item(rs.getLong("id"), rs.getString("sku"),
            rs.getString("name"), rs.getBigDecimal("price"), rs.getInt("stock"), rs.getString("description"),
            new Category(rs.getLong("category_id"), rs.getString("category_code"), rs.getString("category_name"),
                    Postgres.instant(rs, "category_updated_at")),
            Postgres.instant(rs, "updated_at"));

    private final JdbcClient jdbc;

    public ItemRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Item> findById(long id) {
        return jdbc.sql(FIND_BY_ID).param(id).query(ROW).optional();
    }

    public long count() {
        return jdbc.sql(COUNT_ALL).query(Long.class).single();
    }

    public long countByCategory(long categoryId) {
        return jdbc.sql(COUNT_BY_CATEGORY).param(categoryId).query(Long.class).single();
    }

    /** The category's item count, or empty when there is no such category. */
    public Optional<Long> countInExistingCategory(long categoryId) {
        return jdbc.sql(COUNT_IN_EXISTING_CATEGORY).param(categoryId).query(Long.class).optional();
    }

    public List<Item> findPage(int size, long offset) {
        return jdbc.sql(PAGE_ALL).param(size).param(offset).query(ROW).list();
    }

    public List<Item> findPageByCategory(long categoryId, int size, long offset) {
        return jdbc.sql(PAGE_BY_CATEGORY).param(categoryId).param(size).param(offset).query(ROW).list();
    }

    /** Fails on item_sku_key (duplicate) or item_category_fk (no such category): DataIntegrityViolationException. */
    public Item insert(ItemRequest request, Instant now) {
        return bind(jdbc.sql(INSERT), request, now).query(ROW).single();
    }

    /** Empty when there is no such item; fails on item_sku_key or item_category_fk as {@link #insert} does. */
    public Optional<Item> update(long id, ItemRequest request, Instant now) {
        return bind(jdbc.sql(UPDATE), request, now).param(8, id).query(ROW).optional();
    }

    /** @return the number of rows deleted (0 = unknown id) */
    public int delete(long id) {
        return jdbc.sql(DELETE).param(id).update();
    }

    /**
     * Parameters 1 to 7 of INSERT and UPDATE, typed as jersey binds them; the description with its SQL type, so a
     * null needs no parameter metadata from the server.
     */
    private static JdbcClient.StatementSpec bind(JdbcClient.StatementSpec statement, ItemRequest request,
            Instant now) {
        return statement.param(1, request.sku())
                .param(2, request.name())
                .param(3, request.price())
                .param(4, request.stock())
                .param(5, request.description(), Types.VARCHAR)
                .param(6, request.categoryId())
                .param(7, Postgres.timestamptz(now));
    }
}
