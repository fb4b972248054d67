package dev.restbench.plain.data;

import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The items the plain dialect's resources read and write: exactly the calls jersey's and quarkus's resources make,
 * in the API's records. {@link ItemRepository} (plain JDBC) implements it for jersey, jersey-jetty, resteasy and
 * quarkus; jersey-jpa and quarkus-orm implement it with Hibernate and compile those resources unchanged.
 *
 * <p>No cost for the measured JDBC variants: a service instantiates one implementation of this interface (jersey-jpa's
 * jar also holds the JDBC repository, unused), so every call site's type profile holds a single class and the JIT
 * inlines the repository's method (guarded by one class compare at most), as when the resources named the final class.
 * The statements, transactions and answers are the implementation's; the repositories' bytecode is unchanged but for
 * the {@code implements} clause.
 *
 * <p>A conflict is a {@link DataConflictException}, a write naming a category that does not exist an
 * {@link UnknownCategoryException}; an implementation that has no checked exception need not declare one.
 */
public interface ItemStore {

    Optional<Item> findById(long id) throws SQLException;

    /** One page ordered by id; {@code categoryId} empty = all items. */
    Page<Item> findPage(OptionalLong categoryId, PageRequest request) throws SQLException;

    /** The items of a category; empty when there is no such category (a 404, not an empty page). */
    Optional<Page<Item>> findPageOfExistingCategory(long categoryId, PageRequest request) throws SQLException;

    Item insert(ItemRequest request, Instant now) throws SQLException;

    /** Empty when there is no such item. */
    Optional<Item> update(long id, ItemRequest request, Instant now) throws SQLException;

    /** False when there is no such item. */
    boolean delete(long id) throws SQLException;
}
