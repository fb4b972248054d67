package dev.restbench.jerseyjpa.data;

import dev.restbench.plain.data.CategoryStore;
import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import dev.restbench.springmvc.category.Category;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Categories over JPA, the statements spring-mvc's CategoryService and its Spring Data repository issue (listed in
 * the README), each call one transaction. jersey's resources, compiled here unchanged, call it as bench-plain-jdbc's
 * {@link CategoryStore}.
 */
public final class JpaCategoryStore implements CategoryStore {

    static final String PAGE = "select c from Category c order by c.id";
    static final String COUNT = "select count(c) from Category c";
    static final String DELETE = "delete from Category c where c.id = :id";

    private final Transactions transactions;

    public JpaCategoryStore(Transactions transactions) {
        this.transactions = transactions;
    }

    /** 1 statement. */
    @Override
    public Optional<dev.restbench.plain.model.Category> findById(long id) throws SQLException {
        return transactions.read(em -> Optional.ofNullable(em.find(Category.class, id)).map(Responses::category));
    }

    /** Content, then the count unless the page itself tells the total ({@link PageTotals}). */
    @Override
    public Page<dev.restbench.plain.model.Category> findPage(PageRequest request) throws SQLException {
        return transactions.read(em -> {
            if (PageTotals.startsBeyondIntOffset(request)) {
                return Page.of(List.of(), request, count(em));
            }
            List<dev.restbench.plain.model.Category> content = em.createQuery(PAGE, Category.class)
                    .setFirstResult((int) request.offset())
                    .setMaxResults(request.size())
                    .getResultList()
                    .stream()
                    .map(Responses::category)
                    .toList();
            long total = PageTotals.known(request, content.size()).orElseGet(() -> count(em));
            return Page.of(content, request, total);
        });
    }

    /** 1 statement (identity column: the id comes back with the INSERT); a duplicate code is a conflict. */
    @Override
    public dev.restbench.plain.model.Category insert(CategoryRequest request, Instant now) throws SQLException {
        return transactions.write(em -> {
            Category category = new Category(request.code(), request.name(), now);
            Transactions.persist(em, category, e -> translate(e, request));
            return Responses.category(category);
        });
    }

    /**
     * SELECT + UPDATE: the loaded entity is changed in place and flushed here, so a duplicate code surfaces as a
     * conflict and not as a failed commit. Empty when there is no such category (also when a concurrent DELETE
     * removed it after the SELECT: the UPDATE finds no row).
     */
    @Override
    public Optional<dev.restbench.plain.model.Category> update(long id, CategoryRequest request, Instant now)
            throws SQLException {
        return transactions.write(em -> {
            Category category = em.find(Category.class, id);
            if (category == null) {
                return Optional.empty();
            }
            category.update(request.code(), request.name(), now);
            if (!Transactions.flush(em, e -> translate(e, request))) {
                return Optional.empty();
            }
            return Optional.of(Responses.category(category));
        });
    }

    /** 1 statement; false when there is no such category, a conflict when items still reference it. */
    @Override
    public boolean delete(long id) throws SQLException {
        return transactions.write(em -> {
            try {
                return em.createQuery(DELETE).setParameter("id", id).executeUpdate() == 1;
            } catch (PersistenceException e) {
                if (DataErrors.violates(e, "item_category_fk")) {
                    throw new DataConflictException("category " + id + " still has items");
                }
                throw e;
            }
        });
    }

    private static long count(EntityManager em) {
        return em.createQuery(COUNT, Long.class).getSingleResult();
    }

    private static RuntimeException translate(PersistenceException e, CategoryRequest request) {
        if (DataErrors.violates(e, "category_code_key")) {
            return new DataConflictException("a category with code '" + request.code() + "' already exists");
        }
        return e;
    }
}
