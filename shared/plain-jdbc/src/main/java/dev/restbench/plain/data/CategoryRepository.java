package dev.restbench.plain.data;

import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;

/** Categories over plain JDBC; every method issues the statements listed in the README and no others. */
public final class CategoryRepository implements CategoryStore {

    private static final String FIND_BY_ID = "SELECT " + Rows.CATEGORY + " FROM category WHERE id = ?";
    private static final String COUNT = "SELECT count(*) FROM category";
    private static final String FIND_PAGE =
            "SELECT " + Rows.CATEGORY + " FROM category ORDER BY id LIMIT ? OFFSET ?";
    private static final String INSERT = "INSERT INTO category (code, name, updated_at) VALUES (?, ?, ?)"
            + " RETURNING " + Rows.CATEGORY;
    private static final String UPDATE = "UPDATE category SET code = ?, name = ?, updated_at = ? WHERE id = ?"
            + " RETURNING " + Rows.CATEGORY;
    private static final String DELETE = "DELETE FROM category WHERE id = ?";

    private final DataSource dataSource;

    public CategoryRepository(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** 1 statement. */
    @Override
    public Optional<Category> findById(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(FIND_BY_ID)) {
            statement.setLong(1, id);
            return single(statement);
        }
    }

    /** 2 statements: count, then content. */
    @Override
    public Page<Category> findPage(PageRequest request) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            long total;
            try (PreparedStatement count = connection.prepareStatement(COUNT);
                 ResultSet rs = count.executeQuery()) {
                rs.next();
                total = rs.getLong(1);
            }
            List<Category> content = new ArrayList<>(request.size());
            try (PreparedStatement statement = connection.prepareStatement(FIND_PAGE)) {
                statement.setInt(1, request.size());
                statement.setLong(2, request.offset());
                try (ResultSet rs = statement.executeQuery()) {
                    while (rs.next()) {
                        content.add(Rows.category(rs));
                    }
                }
            }
            return Page.of(content, request, total);
        }
    }

    /** 1 statement; a duplicate code is a {@link DataConflictException}. */
    @Override
    public Category insert(CategoryRequest request, Instant now) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(INSERT)) {
            statement.setString(1, request.code());
            statement.setString(2, request.name());
            Rows.setInstant(statement, 3, now);
            return single(statement).orElseThrow();
        } catch (SQLException e) {
            throw translate(e, request);
        }
    }

    /** 1 statement; empty when there is no such category. */
    @Override
    public Optional<Category> update(long id, CategoryRequest request, Instant now) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(UPDATE)) {
            statement.setString(1, request.code());
            statement.setString(2, request.name());
            Rows.setInstant(statement, 3, now);
            statement.setLong(4, id);
            return single(statement);
        } catch (SQLException e) {
            throw translate(e, request);
        }
    }

    /** 1 statement; false when there is no such category, a conflict when items still reference it. */
    @Override
    public boolean delete(long id) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(DELETE)) {
            statement.setLong(1, id);
            return statement.executeUpdate() == 1;
        } catch (SQLException e) {
            if (SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION, "item_category_fk")) {
                throw new DataConflictException("category " + id + " still has items");
            }
            throw e;
        }
    }

    private static Optional<Category> single(PreparedStatement statement) throws SQLException {
        try (ResultSet rs = statement.executeQuery()) {
            return rs.next() ? Optional.of(Rows.category(rs)) : Optional.empty();
        }
    }

    private static SQLException translate(SQLException e, CategoryRequest request) {
        if (SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION, "category_code_key")) {
            throw new DataConflictException("a category with code '" + request.code() + "' already exists");
        }
        return e;
    }
}
