package dev.restbench.webflux.data;

import dev.restbench.webflux.api.CategoryRequest;
import dev.restbench.webflux.web.ConflictException;
import dev.restbench.webflux.web.PageResponse;
import dev.restbench.webflux.web.Paging;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Repository;
import reactor.core.publisher.Mono;

import java.time.Instant;

/**
 * Categories through Spring's {@link DatabaseClient}: jersey's SQL, one statement per call, each in auto-commit
 * (no BEGIN/COMMIT on the wire). Nothing here blocks: every method returns a publisher the caller subscribes to.
 */
@Repository
public class CategoryRepository {

    private static final String FIND_BY_ID = "SELECT " + Rows.CATEGORY + " FROM category WHERE id = $1";
    private static final String COUNT = "SELECT count(*) FROM category";
    private static final String FIND_PAGE =
            "SELECT " + Rows.CATEGORY + " FROM category ORDER BY id LIMIT $1 OFFSET $2";
    private static final String INSERT = "INSERT INTO category (code, name, updated_at) VALUES ($1, $2, $3)"
            + " RETURNING " + Rows.CATEGORY;
    private static final String UPDATE = "UPDATE category SET code = $1, name = $2, updated_at = $3 WHERE id = $4"
            + " RETURNING " + Rows.CATEGORY;
    private static final String DELETE = "DELETE FROM category WHERE id = $1";

    private final DatabaseClient db;

    public CategoryRepository(DatabaseClient db) {
        this.db = db;
    }

    /** 1 statement; empty when there is no such category. */
    public Mono<Category> findById(long id) {
        return db.sql(FIND_BY_ID).bind(0, id).map(Rows::category).one();
    }

    /** 2 statements: count, then content. */
    public Mono<PageResponse<Category>> findPage(Paging paging) {
        return db.sql(COUNT).map(Rows::count).one()
                .flatMap(total -> db.sql(FIND_PAGE).bind(0, paging.size()).bind(1, paging.offset())
                        .map(Rows::category).all().collectList()
                        .map(content -> PageResponse.of(content, paging, total)));
    }

    /** 1 statement; a duplicate code is a {@link ConflictException}. */
    public Mono<Category> insert(CategoryRequest request, Instant now) {
        return db.sql(INSERT).bind(0, request.code()).bind(1, request.name()).bind(2, Rows.timestamp(now))
                .map(Rows::category).one()
                .onErrorMap(e -> SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION, "category_code_key"),
                        e -> duplicate(request));
    }

    /** 1 statement; empty when there is no such category. */
    public Mono<Category> update(long id, CategoryRequest request, Instant now) {
        return db.sql(UPDATE).bind(0, request.code()).bind(1, request.name()).bind(2, Rows.timestamp(now))
                .bind(3, id)
                .map(Rows::category).one()
                .onErrorMap(e -> SqlErrors.is(e, SqlErrors.UNIQUE_VIOLATION, "category_code_key"),
                        e -> duplicate(request));
    }

    /** 1 statement; false when there is no such category, a conflict when items still reference it. */
    public Mono<Boolean> delete(long id) {
        return db.sql(DELETE).bind(0, id).fetch().rowsUpdated()
                .map(rows -> rows == 1)
                .onErrorMap(e -> SqlErrors.is(e, SqlErrors.FOREIGN_KEY_VIOLATION, "item_category_fk"),
                        e -> new ConflictException("category " + id + " still has items", null));
    }

    private static ConflictException duplicate(CategoryRequest request) {
        return new ConflictException("another resource already has this code", "code");
    }
}
