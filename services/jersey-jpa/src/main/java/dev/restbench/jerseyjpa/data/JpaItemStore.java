package dev.restbench.jerseyjpa.data;

import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.data.ItemStore;
import dev.restbench.plain.data.UnknownCategoryException;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import dev.restbench.springmvc.category.Category;
import dev.restbench.springmvc.item.Item;
import jakarta.persistence.EntityGraph;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.persistence.TypedQuery;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Items over JPA, the statements spring-mvc's ItemService and its Spring Data repository issue (listed in the
 * README), each call one transaction. Every query whose items go into a response fetches their category in the
 * same statement through a fetch graph on the LAZY association, as spring-mvc's {@code @EntityGraph(attributePaths
 * = "category")} does, so there is no load per category and Hibernate renders the SQL spring-mvc sends, to the
 * letter. {@code i.category.id} is the item's own category_id column: the filters and counts need no join. jersey's
 * resources, compiled here unchanged, call it as bench-plain-jdbc's {@link ItemStore}.
 */
public final class JpaItemStore implements ItemStore {

    static final String BY_ID = "select i from Item i where i.id = :id";
    static final String PAGE_ALL = "select i from Item i order by i.id";
    static final String PAGE_BY_CATEGORY = "select i from Item i where i.category.id = :categoryId order by i.id";
    /** The count Spring Data derives for {@code findAll(Pageable)}. */
    static final String COUNT_ALL = "select count(i) from Item i";
    /** The count Spring Data derives for {@code findByCategoryId(long, Pageable)}. */
    static final String COUNT_BY_CATEGORY = "select count(*) from Item i where i.category.id = :categoryId";
    /** The query Spring Data's {@code existsById} runs. */
    static final String CATEGORY_EXISTS = "select count(*) from Category c where c.id = :id";
    static final String DELETE = "delete from Item i where i.id = :id";
    /** Spring Data's default {@code EntityGraphType.FETCH}. */
    static final String FETCH_GRAPH = "jakarta.persistence.fetchgraph";

    private final Transactions transactions;

    public JpaItemStore(Transactions transactions) {
        this.transactions = transactions;
    }

    /** 1 statement: the item joined with its category. */
    @Override
    public Optional<dev.restbench.plain.model.Item> findById(long id) throws SQLException {
        return transactions.read(em -> withCategory(em, id).map(Responses::item));
    }

    /** Content, then the count unless the page tells the total; {@code categoryId} empty = all items. */
    @Override
    public Page<dev.restbench.plain.model.Item> findPage(OptionalLong categoryId, PageRequest request)
            throws SQLException {
        return transactions.read(em -> page(em, categoryId, request));
    }

    /**
     * The items of an existing category, empty if there is no such category. Whether it exists is only asked when
     * the page comes back empty: a returned item proves its category exists (foreign key).
     */
    @Override
    public Optional<Page<dev.restbench.plain.model.Item>> findPageOfExistingCategory(long categoryId,
            PageRequest request) throws SQLException {
        return transactions.read(em -> {
            Page<dev.restbench.plain.model.Item> page = page(em, OptionalLong.of(categoryId), request);
            if (page.content().isEmpty() && em.createQuery(CATEGORY_EXISTS, Long.class)
                    .setParameter("id", categoryId).getSingleResult() == 0) {
                return Optional.empty();
            }
            return Optional.of(page);
        });
    }

    /** SELECT category (it must exist, and the response shows it) + INSERT. */
    @Override
    public dev.restbench.plain.model.Item insert(ItemRequest request, Instant now) throws SQLException {
        return transactions.write(em -> {
            Item item = new Item();
            apply(request, item, existingCategory(em, request.categoryId()), now);
            Transactions.persist(em, item, e -> translate(e, request));
            return Responses.item(item);
        });
    }

    /**
     * SELECT item with its category + UPDATE; one more SELECT when the item moves to another category. Flushed
     * here, so a duplicate sku is a conflict and not a failed commit. Empty when there is no such item (also when
     * a concurrent DELETE removed it after the SELECT).
     */
    @Override
    public Optional<dev.restbench.plain.model.Item> update(long id, ItemRequest request, Instant now)
            throws SQLException {
        return transactions.write(em -> {
            Optional<Item> found = withCategory(em, id);
            if (found.isEmpty()) {
                return Optional.empty();
            }
            Item item = found.get();
            Category category = item.getCategory().getId().equals(request.categoryId())
                    ? item.getCategory()
                    : existingCategory(em, request.categoryId());
            apply(request, item, category, now);
            if (!Transactions.flush(em, e -> translate(e, request))) {
                return Optional.empty();
            }
            return Optional.of(Responses.item(item));
        });
    }

    /** 1 statement; false when there is no such item. */
    @Override
    public boolean delete(long id) throws SQLException {
        return transactions.write(em -> em.createQuery(DELETE).setParameter("id", id).executeUpdate() == 1);
    }

    private static Optional<Item> withCategory(EntityManager em, long id) {
        List<Item> found = withCategory(em, em.createQuery(BY_ID, Item.class)).setParameter("id", id).getResultList();
        return found.isEmpty() ? Optional.empty() : Optional.of(found.get(0));
    }

    private static Page<dev.restbench.plain.model.Item> page(EntityManager em, OptionalLong categoryId,
            PageRequest request) {
        if (PageTotals.startsBeyondIntOffset(request)) {
            return Page.of(List.of(), request, count(em, categoryId));
        }
        TypedQuery<Item> query = categoryId.isPresent()
                ? em.createQuery(PAGE_BY_CATEGORY, Item.class).setParameter("categoryId", categoryId.getAsLong())
                : em.createQuery(PAGE_ALL, Item.class);
        // spring-mvc's derived findByCategoryId binds no offset on the first page (its SQL has no OFFSET there),
        // its findAll always binds one: the same SQL text here.
        if (categoryId.isEmpty() || request.offset() > 0) {
            query.setFirstResult((int) request.offset());
        }
        List<dev.restbench.plain.model.Item> content = withCategory(em, query)
                .setMaxResults(request.size())
                .getResultList()
                .stream()
                .map(Responses::item)
                .toList();
        long total = PageTotals.known(request, content.size()).orElseGet(() -> count(em, categoryId));
        return Page.of(content, request, total);
    }

    /** The category fetched with the items, in the same statement (a join). */
    private static TypedQuery<Item> withCategory(EntityManager em, TypedQuery<Item> query) {
        EntityGraph<Item> graph = em.createEntityGraph(Item.class);
        graph.addAttributeNode("category");
        return query.setHint(FETCH_GRAPH, graph);
    }

    private static long count(EntityManager em, OptionalLong categoryId) {
        return categoryId.isPresent()
                ? em.createQuery(COUNT_BY_CATEGORY, Long.class)
                        .setParameter("categoryId", categoryId.getAsLong()).getSingleResult()
                : em.createQuery(COUNT_ALL, Long.class).getSingleResult();
    }

    private static Category existingCategory(EntityManager em, long categoryId) {
        Category category = em.find(Category.class, categoryId);
        if (category == null) {
            throw new UnknownCategoryException(categoryId);
        }
        return category;
    }

    private static void apply(ItemRequest request, Item item, Category category, Instant now) {
        // Validation allowed at most two decimals; scale 2 is what numeric(10,2) stores and returns.
        item.update(request.sku(), request.name(), request.price().setScale(2, RoundingMode.UNNECESSARY),
                Math.toIntExact(request.stock()), request.description(), category, now);
    }

    private static RuntimeException translate(PersistenceException e, ItemRequest request) {
        if (DataErrors.violates(e, "item_sku_key")) {
            return new DataConflictException("an item with sku '" + request.sku() + "' already exists");
        }
        if (DataErrors.violates(e, "item_category_fk")) {
            // The category was deleted between its SELECT and the INSERT/UPDATE.
            return new UnknownCategoryException(request.categoryId());
        }
        return e;
    }
}
