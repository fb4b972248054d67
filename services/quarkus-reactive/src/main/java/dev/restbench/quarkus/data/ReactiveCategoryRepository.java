package dev.restbench.quarkus.data;

import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;

/**
 * Categories over the reactive pool: bench-plain-jdbc's CategoryRepository statement for statement (jersey's SQL,
 * with PostgreSQL's $n placeholders, which pgjdbc sends in place of its ? too), each in auto-commit.
 */
@Singleton
public class ReactiveCategoryRepository {

    private static final String FIND_BY_ID = "SELECT " + Rows.CATEGORY + " FROM category WHERE id = $1";
    private static final String COUNT = "SELECT count(*) FROM category";
    private static final String FIND_PAGE =
            "SELECT " + Rows.CATEGORY + " FROM category ORDER BY id LIMIT $1 OFFSET $2";
    private static final String INSERT = "INSERT INTO category (code, name, updated_at) VALUES ($1, $2, $3)"
            + " RETURNING " + Rows.CATEGORY;
    private static final String UPDATE = "UPDATE category SET code = $1, name = $2, updated_at = $3 WHERE id = $4"
            + " RETURNING " + Rows.CATEGORY;
    private static final String DELETE = "DELETE FROM category WHERE id = $1";

    private final Pool pool;

    @Inject
    public ReactiveCategoryRepository(Pool pool) {
        this.pool = pool;
    }

    /** 1 statement. */
    public Uni<Optional<Category>> findById(long id) {
        return pool.preparedQuery(FIND_BY_ID).execute(Tuple.of(id)).map(rows -> Rows.first(rows, Rows::category));
    }

    /** 2 statements on one connection: count, then content. */
    public Uni<Page<Category>> findPage(PageRequest request) {
        return pool.withConnection(connection -> connection.preparedQuery(COUNT).execute()
                .flatMap(counted -> connection.preparedQuery(FIND_PAGE)
                        .execute(Tuple.of((long) request.size(), request.offset()))
                        .map(rows -> Page.of(Rows.all(rows, Rows::category), request,
                                Rows.count(counted).orElse(0)))));
    }

    /** 1 statement; a duplicate code is a {@link DataConflictException}. */
    public Uni<Category> insert(CategoryRequest request, Instant now) {
        return pool.preparedQuery(INSERT).execute(Tuple.of(request.code(), request.name(), Rows.timestamp(now)))
                .map(rows -> Rows.first(rows, Rows::category).orElseThrow())
                .onFailure().transform(e -> translate(e, request));
    }

    /** 1 statement; empty when there is no such category. */
    public Uni<Optional<Category>> update(long id, CategoryRequest request, Instant now) {
        return pool.preparedQuery(UPDATE)
                .execute(Tuple.of(request.code(), request.name(), Rows.timestamp(now), id))
                .map(rows -> Rows.first(rows, Rows::category))
                .onFailure().transform(e -> translate(e, request));
    }

    /** 1 statement; false when there is no such category, a conflict when items still reference it. */
    public Uni<Boolean> delete(long id) {
        return pool.preparedQuery(DELETE).execute(Tuple.of(id)).map(rows -> rows.rowCount() == 1)
                .onFailure().transform(e -> PgErrors.is(e, PgErrors.FOREIGN_KEY_VIOLATION, "item_category_fk")
                        ? new DataConflictException("category " + id + " still has items") : e);
    }

    private static Throwable translate(Throwable e, CategoryRequest request) {
        if (PgErrors.is(e, PgErrors.UNIQUE_VIOLATION, "category_code_key")) {
            return new DataConflictException("a category with code '" + request.code() + "' already exists");
        }
        return e;
    }
}
