package dev.restbench.plain.data;

import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import javax.sql.DataSource;

/**
 * Items over plain JDBC. Every item comes back with its category from the same statement (a join; writes use
 * a data-modifying CTE joined to category), so no endpoint issues one query per item.
 */
public final class ItemRepository implements ItemStore {

    private static final String FROM_ITEM_JOIN_CATEGORY = " FROM item i JOIN category c ON c.id = i.category_id";
    private static final String FIND_BY_ID =
            "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY + " WHERE i.id = ?";
    private static final String COUNT_ALL = "SELECT count(*) FROM item";
    private static final String COUNT_BY_CATEGORY = "SELECT count(*) FROM item WHERE category_id = ?";
    /** No row when the category does not exist, so "404 or count" is one statement. */
    private static final String COUNT_IN_EXISTING_CATEGORY = "SELECT count(i.id) FROM category c"
            + " LEFT JOIN item i ON i.category_id = c.id WHERE c.id = ? GROUP BY c.id";
    private static final String PAGE_ALL = "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String PAGE_BY_CATEGORY = "SELECT " + Rows.ITEM_WITH_CATEGORY + FROM_ITEM_JOIN_CATEGORY
            + " WHERE i.category_id = ? ORDER BY i.id LIMIT ? OFFSET ?";
    private static final String RETURNING = " RETURNING id, sku, name, price, stock, description, category_id, updated_at)"
            + " SELECT " + Rows.ITEM_WITH_CATEGORY + " FROM saved i JOIN category c ON c.id = i.category_id";
    private static final String INSERT = "WITH saved AS (INSERT INTO item"
            + " (sku, name, price, stock, description, category_id, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
            + RETURNING;
    private static final String UPDATE = "WITH saved AS (UPDATE item SET sku = ?, name = ?, price = ?, stock = ?,"
            + " description = ?, category_id = ?, updated_at = ? WHERE id = ?" + RETURNING;
    private static final String DELETE = "DELETE FROM item WHERE id = ?";

    private final DataSource dataSource;

    public ItemRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** 1 statement. */
    @Override
    public Optional<Item> findById(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(FIND_BY_ID)) {
            statement.setLong(1, id);
            return single(statement);
        }
    }

    /** 2 statements: count, then content; {@code categoryId} empty = all items. */
    @Override
    public Page<Item> findPage(OptionalLong categoryId, PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            long total = categoryId.isPresent()
                    ? count(connection, COUNT_BY_CATEGORY, categoryId.getAsLong()).orElse(0)
                    : count(connection, COUNT_ALL, null).orElse(0);
            return Page.of(content(connection, categoryId, request), request, total);
        }
    }

    /** 2 statements (count that also proves the category exists, then content); empty if no such category. */
    @Override
    public Optional<Page<Item>> findPageOfExistingCategory(long categoryId, PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            OptionalLong total = count(connection, COUNT_IN_EXISTING_CATEGORY, categoryId);
            if (total.isEmpty()) {
                return Optional.empty();
            }
            List<Item> content = content(connection, OptionalLong.of(categoryId), request);
            return Optional.of(Page.of(content, request, total.getAsLong()));
        }
    }

    /** 1 statement. */
    @Override
    public Item insert(ItemRequest request, Instant now) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(INSERT)) {
            bind(statement, request, now);
            return single(statement).orElseThrow();
        } catch (SQLException e) {
            throw translate(e, request);
        }
    }

    /** 1 statement; empty when there is no such item. */
    @Override
    public Optional<Item> update(long id, ItemRequest request, Instant now) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(UPDATE)) {
            bind(statement, request, now);
            statement.setLong(8, id);
            return single(statement);
        } catch (SQLException e) {
            throw translate(e, request);
        }
    }

    /** 1 statement; false when there is no such item. */
    @Override
    public boolean delete(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(DELETE)) {
            statement.setLong(1, id);
            return statement.executeUpdate() == 1;
        }
    }

    private static OptionalLong count(Connection connection, String sql, Long categoryId) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            if (categoryId != null) {
                statement.setLong(1, categoryId);
            }
            try (ResultSet rs = statement.executeQuery()) {
                return rs.next() ? OptionalLong.of(rs.getLong(1)) : OptionalLong.empty();
            }
        }
    }

    private static List<Item> content(Connection connection, OptionalLong categoryId, PageRequest request)
            throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                categoryId.isPresent() ? PAGE_BY_CATEGORY : PAGE_ALL)) {
            int index = 1;
            if (categoryId.isPresent()) {
                statement.setLong(index++, categoryId.getAsLong());
            }
            statement.setInt(index++, request.size());
            statement.setLong(index, request.offset());
            List<Item> content = new ArrayList<>(request.size());
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    content.add(Rows.item(rs));
                }
            }
            return content;
        }
    }

    private static void bind(PreparedStatement statement, ItemRequest request, Instant now) throws SQLException {
        statement.setString(1, request.sku());
        statement.setString(2, request.name());
        statement.setBigDecimal(3, request.price());
        statement.setInt(4, Math.toIntExact(request.stock()));
        if (request.description() == null) {
            statement.setNull(5, Types.VARCHAR);
        } else {
            statement.setString(5, request.description());
        }
        statement.setLong(6, request.categoryId());
        Rows.setInstant(statement, 7, now);
    }

    private static Optional<Item> single(PreparedStatement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery()) {
            return rs.next() ? Optional.of(Rows.item(rs)) : Optional.empty();
        }
    }

    private static SQLException translate(SQLException e, ItemRequest request) {
        if (SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION, "item_sku_key")) {
            throw new DataConflictException("an item with sku '" + request.sku() + "' already exists");
        }
        if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION, "item_category_fk")) {
            throw new UnknownCategoryException(request.categoryId());
        }
        return e;
    }
}
