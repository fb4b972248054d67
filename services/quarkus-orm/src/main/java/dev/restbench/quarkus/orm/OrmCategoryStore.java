package dev.restbench.quarkus.orm;

import dev.restbench.plain.data.CategoryStore;
import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.plain.model.PageRequest;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import org.hibernate.jpa.HibernateHints;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Categories through Hibernate ORM with Panache, returned as the API's records. Reads run without a transaction
 * (Quarkus's request-scoped session, statements in auto-commit, as the Quarkus guides read) and load their entities
 * read-only (no snapshot for a dirty check, as spring-mvc's read-only transactions); writes are
 * {@code @Transactional} (one JTA transaction: BEGIN with the first statement, COMMIT). The statements each method
 * issues are listed in sql-statements.json. services/quarkus's resources, compiled here unchanged, inject it as
 * bench-plain-jdbc's {@link CategoryStore}.
 */
@ApplicationScoped
public class OrmCategoryStore implements CategoryStore {

    private final Categories categories;

    @Inject
    public OrmCategoryStore(Categories categories) {
        this.categories = categories;
    }

    /** 1 statement. */
    @Override
    public Optional<Category> findById(long id) {
        return categories.getSession().byId(dev.restbench.springmvc.category.Category.class).withReadOnly(true)
                .loadOptional(id).map(Views::category);
    }

    /** 2 statements: count, then content. */
    @Override
    public Page<Category> findPage(PageRequest request) {
        long total = categories.count();
        List<Category> content = Paging.beyondFirstResult(request) ? List.of()
                : categories.findAll(Sort.by("id")).withHint(HibernateHints.HINT_READ_ONLY, true)
                        .page(request.page(), request.size()).list().stream().map(Views::category).toList();
        return Page.of(content, request, total);
    }

    /** 1 statement (identity column: the INSERT returns the id); a duplicate code is a {@link DataConflictException}. */
    @Override
    @Transactional
    public Category insert(CategoryRequest request, Instant now) {
        var category = new dev.restbench.springmvc.category.Category(request.code(), request.name(), now);
        try {
            categories.persistAndFlush(category);
        } catch (PersistenceException e) {
            throw translate(e, request, null);
        }
        return Views.category(category);
    }

    /** 2 statements: SELECT, then the UPDATE the changed entity flushes; empty when there is no such category. */
    @Override
    @Transactional
    public Optional<Category> update(long id, CategoryRequest request, Instant now) {
        var category = categories.findById(id);
        if (category == null) {
            return Optional.empty();
        }
        category.update(request.code(), request.name(), now);
        try {
            // Flush here so that a duplicate code surfaces now as a conflict, not as a failed commit.
            categories.flush();
        } catch (PersistenceException e) {
            throw translate(e, request, id);
        }
        return Optional.of(Views.category(category));
    }

    /**
     * 1 statement (a bulk DELETE: Panache's deleteById would load the entity first); false when there is no such
     * category, a conflict when items still reference it (item_category_fk).
     */
    @Override
    @Transactional
    public boolean delete(long id) {
        try {
            return categories.delete("id", id) == 1;
        } catch (PersistenceException e) {
            if (Constraints.ITEM_CATEGORY.equals(Constraints.violated(e))) {
                throw new DataConflictException("category " + id + " still has items");
            }
            throw e;
        }
    }

    private static RuntimeException translate(PersistenceException e, CategoryRequest request, Long id) {
        if (Constraints.CATEGORY_CODE.equals(Constraints.violated(e))) {
            return new DataConflictException("a category with code '" + request.code() + "' already exists");
        }
        return Constraints.otherRefusal(e, "category", id);
    }
}
