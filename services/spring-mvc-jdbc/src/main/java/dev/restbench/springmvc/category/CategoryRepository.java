package dev.restbench.springmvc.category;

import dev.restbench.springmvc.jdbc.Postgres;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Categories through Spring's {@link JdbcClient}, with jersey's SQL text (shared/plain-jdbc CategoryRepository):
 * each method is one statement. The connection and the transaction are Spring's (the services' {@code @Transactional}).
 */
@Repository
public class CategoryRepository {

    private static final String CATEGORY = "id, code, name, updated_at";
    private static final String FIND_BY_ID = "SELECT " + CATEGORY + " FROM category WHERE id = ?";
    private static final String COUNT = "SELECT count(*) FROM category";
    private static final String FIND_PAGE = "SELECT " + CATEGORY + " FROM category ORDER BY id LIMIT ? OFFSET ?";
    private static final String INSERT = "INSERT INTO category (code, name, updated_at) VALUES (?, ?, ?)"
            + " RETURNING " + CATEGORY;
    private static final String UPDATE = "UPDATE category SET code = ?, name = ?, updated_at = ? WHERE id = ?"
            + " RETURNING " + CATEGORY;
    private static final String DELETE = "DELETE FROM category WHERE id = ?";

    private static final RowMapper<Category> ROW = (rs, row) -> new Category(rs.getLong("id"),
            rs.getString("code"), rs.getString("name"), Postgres.instant(rs, "updated_at"));

    private final JdbcClient jdbc;

    public CategoryRepository(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public Optional<Category> findById(long id) {
        return jdbc.sql(FIND_BY_ID).param(id).query(ROW).optional();
    }

    public long count() {
        return jdbc.sql(COUNT).query(Long.class).single();
    }

    public List<Category> findPage(int size, long offset) {
        return jdbc.sql(FIND_PAGE).param(size).param(offset).query(ROW).list();
    }

    /** A duplicate code fails on category_code_key (a DataIntegrityViolationException). */
    public Category insert(CategoryRequest request, Instant now) {
        return jdbc.sql(INSERT).param(request.code()).param(request.name()).param(Postgres.timestamptz(now))
                .query(ROW).single();
    }

    /** Empty when there is no such category; a duplicate code fails on category_code_key. */
    public Optional<Category> update(long id, CategoryRequest request, Instant now) {
        return jdbc.sql(UPDATE).param(request.code()).param(request.name()).param(Postgres.timestamptz(now))
                .param(id).query(ROW).optional();
    }

    /**
     * @return the number of rows deleted (0 = unknown id); item_category_fk refuses a category that still has items
     */
    public int delete(long id) {
        return jdbc.sql(DELETE).param(id).update();
    }
}
