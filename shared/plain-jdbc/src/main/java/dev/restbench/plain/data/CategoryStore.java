package dev.restbench.plain.data;

import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;

/**
 * The categories the plain dialect's resources read and write: exactly the calls jersey's and quarkus's resources
 * make, in the API's records. {@link CategoryRepository} (plain JDBC) implements it; jersey-jpa and quarkus-orm
 * implement it with Hibernate. One implementation per JVM, so the calls stay monomorphic and cost nothing over the
 * final class the resources named before (see {@link ItemStore}).
 *
 * <p>A duplicate code, or deleting a category that still has items, is a {@link DataConflictException}.
 */
public interface CategoryStore {

    Optional<Category> findById(long id) throws SQLException;

    /** One page ordered by id. */
    Page<Category> findPage(PageRequest request) throws SQLException;

    Category insert(CategoryRequest request, Instant now) throws SQLException;

    /** Empty when there is no such category. */
    Optional<Category> update(long id, CategoryRequest request, Instant now) throws SQLException;

    /** False when there is no such category. */
    boolean delete(long id) throws SQLException;
}
