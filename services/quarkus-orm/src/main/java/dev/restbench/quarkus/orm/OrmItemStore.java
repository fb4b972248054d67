package dev.restbench.quarkus.orm;

import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.data.ItemStore;
import dev.restbench.plain.data.UnknownCategoryException;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import dev.restbench.springmvc.category.Category;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import org.hibernate.jpa.HibernateHints;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Items through Hibernate ORM with Panache, returned as the API's records. Every query that returns items for a
 * response fetches their category in the same statement ({@code join fetch} of the LAZY association), so no endpoint
 * loads a category per item; the counts do not join category ({@code category.id} is the item's own category_id
 * column). Reads run without a transaction (Quarkus's request-scoped session, statements in auto-commit) and load
 * their entities read-only (no snapshot kept for a dirty check that never comes, as spring-mvc's read-only
 * transactions do); writes are {@code @Transactional}. The statements each method issues are listed in
 * sql-statements.json. services/quarkus's resources, compiled here unchanged, inject it as bench-plain-jdbc's
 * {@link ItemStore} (the only bean of that type here: the sibling's JDBC producer is left out).
 */
@ApplicationScoped
public class OrmItemStore implements ItemStore {

    private static final String WITH_CATEGORY = "from Item i join fetch i.category";
    private static final String BY_ID = WITH_CATEGORY + " where i.id = ?1";
    private static final String PAGE_ALL = WITH_CATEGORY + " order by i.id";
    private static final String PAGE_BY_CATEGORY = WITH_CATEGORY + " where i.category.id = ?1 order by i.id";
    /**
     * The count of a category's items that also proves the category exists (an entity join: no row when there is no
     * such category), so "404 or count" is one statement, as in the sibling.
     */
    private static final String COUNT_IN_EXISTING_CATEGORY = "select count(i.id) from Category c"
            + " left join Item i on i.category = c where c.id = ?1 group by c.id";

    private final Items items;
    private final Categories categories;

    @Inject
    public OrmItemStore(Items items, Categories categories) {
        this.items = items;
        this.categories = categories;
    }

    /** 1 statement: the item joined with its category. */
    @Override
    public Optional<Item> findById(long id) {
        return items.find(BY_ID, id).withHint(HibernateHints.HINT_READ_ONLY, true).singleResultOptional()
                .map(Views::item);
    }

    /** 2 statements: count, then content; {@code categoryId} empty = all items. */
    @Override
    public Page<Item> findPage(OptionalLong categoryId, PageRequest request) {
        long total = categoryId.isPresent() ? items.count("category.id", categoryId.getAsLong()) : items.count();
        return Page.of(content(categoryId, request), request, total);
    }

    /** 2 statements (count that also proves the category exists, then content); empty if no such category. */
    @Override
    public Optional<Page<Item>> findPageOfExistingCategory(long categoryId, PageRequest request) {
        List<Long> total = items.getEntityManager()
                .createQuery(COUNT_IN_EXISTING_CATEGORY, Long.class)
                .setParameter(1, categoryId)
                .getResultList();
        if (total.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(Page.of(content(OptionalLong.of(categoryId), request), request, total.get(0)));
    }

    /**
     * 2 statements: SELECT the category (it must exist, and the response shows it), then the INSERT (identity
     * column: it returns the id). Unknown category: 1 statement, then {@link UnknownCategoryException}.
     */
    @Override
    @Transactional
    public Item insert(ItemRequest request, Instant now) {
        var item = new dev.restbench.springmvc.item.Item();
        apply(item, request, existingCategory(request.categoryId()), now);
        try {
            items.persistAndFlush(item);
        } catch (PersistenceException e) {
            throw translate(e, request, null);
        }
        return Views.item(item);
    }

    /**
     * 2 statements: SELECT the item with its category, then the UPDATE the changed entity flushes; 3 when the item
     * moves to another category (SELECT of that one). Empty when there is no such item.
     */
    @Override
    @Transactional
    public Optional<Item> update(long id, ItemRequest request, Instant now) {
        var found = items.find(BY_ID, id).singleResultOptional();
        if (found.isEmpty()) {
            return Optional.empty();
        }
        var item = found.get();
        Category category = item.getCategory().getId().equals(request.categoryId())
                ? item.getCategory()
                : existingCategory(request.categoryId());
        apply(item, request, category, now);
        try {
            // Flush here so that a duplicate sku surfaces now as a conflict, not as a failed commit.
            items.flush();
        } catch (PersistenceException e) {
            throw translate(e, request, id);
        }
        return Optional.of(Views.item(item));
    }

    /** 1 statement (a bulk DELETE: Panache's deleteById would load the entity first); false when there is none. */
    @Override
    @Transactional
    public boolean delete(long id) {
        return items.delete("id", id) == 1;
    }

    private List<Item> content(OptionalLong categoryId, PageRequest request) {
        if (Paging.beyondFirstResult(request)) {
            return List.of();
        }
        PanacheQuery<dev.restbench.springmvc.item.Item> query = categoryId.isPresent()
                ? items.find(PAGE_BY_CATEGORY, categoryId.getAsLong())
                : items.find(PAGE_ALL);
        return query.withHint(HibernateHints.HINT_READ_ONLY, true).page(request.page(), request.size()).list()
                .stream().map(Views::item).toList();
    }

    private Category existingCategory(long categoryId) {
        return categories.findByIdOptional(categoryId).orElseThrow(() -> new UnknownCategoryException(categoryId));
    }

    private static void apply(dev.restbench.springmvc.item.Item item, ItemRequest request, Category category,
            Instant now) {
        // Validation allowed at most two decimals; scale 2 is what numeric(10,2) stores and the sibling returns.
        item.update(request.sku(), request.name(), request.price().setScale(2, RoundingMode.UNNECESSARY),
                Math.toIntExact(request.stock()), request.description(), category, now);
    }

    private static RuntimeException translate(PersistenceException e, ItemRequest request, Long id) {
        String constraint = Constraints.violated(e);
        if (Constraints.ITEM_SKU.equals(constraint)) {
            return new DataConflictException("an item with sku '" + request.sku() + "' already exists");
        }
        if (Constraints.ITEM_CATEGORY.equals(constraint)) {
            // The category was deleted between its SELECT and this write.
            return new UnknownCategoryException(request.categoryId());
        }
        return Constraints.otherRefusal(e, "item", id);
    }
}
