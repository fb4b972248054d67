package dev.restbench.springmvc.item;

import dev.restbench.springmvc.Timestamps;
import dev.restbench.springmvc.jdbc.Postgres;
import dev.restbench.springmvc.web.NotFoundException;
import dev.restbench.springmvc.web.UnknownCategoryException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.util.List;
import java.util.function.Supplier;

/**
 * Reads run in one read-only transaction per call (one connection checkout, a page's count and content together,
 * and a COMMIT rather than the ROLLBACK a pool connection without auto-commit gets when nobody commits); writes
 * override it with a read-write transaction: spring-mvc's transactions, over JDBC instead of JPA. Every write is one
 * statement that returns the item with its category; the database's constraints decide conflicts (race-free).
 */
@Service
@Transactional(readOnly = true)
public class ItemService {

    private static final String ITEM_CATEGORY_FK = "item_category_fk";

    private final ItemRepository items;

    public ItemService(ItemRepository items) {
        this.items = items;
    }

    /** All items, or those of one category (an unknown category gives an empty page): count, then the page. */
    public Page<Item> list(Long categoryId, Pageable pageable) {
        if (categoryId == null) {
            long total = items.count();
            return new PageImpl<>(items.findPage(pageable.getPageSize(), pageable.getOffset()), pageable, total);
        }
        long total = items.countByCategory(categoryId);
        return page(categoryId, pageable, total);
    }

    /** The items of an existing category (404 otherwise): the count says whether the category exists. */
    public Page<Item> listOfCategory(long categoryId, Pageable pageable) {
        long total = items.countInExistingCategory(categoryId)
                .orElseThrow(() -> new NotFoundException("category", categoryId));
        return page(categoryId, pageable, total);
    }

    public Item get(long id) {
        return items.findById(id).orElseThrow(() -> new NotFoundException("item", id));
    }

    /** One INSERT … RETURNING joined to the category (which must exist: item_category_fk). */
    @Transactional
    public Item create(ItemRequest request) {
        return inExistingCategory(request, () -> items.insert(request, Timestamps.now()));
    }

    /** One UPDATE … RETURNING joined to the category; no row is an unknown item. */
    @Transactional
    public Item update(long id, ItemRequest request) {
        return inExistingCategory(request, () -> items.update(id, request, Timestamps.now()))
                .orElseThrow(() -> new NotFoundException("item", id));
    }

    /** One DELETE. */
    @Transactional
    public void delete(long id) {
        if (items.delete(id) == 0) {
            throw new NotFoundException("item", id);
        }
    }

    private Page<Item> page(long categoryId, Pageable pageable, long total) {
        List<Item> content = items.findPageByCategory(categoryId, pageable.getPageSize(), pageable.getOffset());
        return new PageImpl<>(content, pageable, total);
    }

    /** A write whose categoryId names no category is a 400 on that field, as spring-mvc's lookup answers it. */
    private static <T> T inExistingCategory(ItemRequest request, Supplier<T> write) {
        try {
            return write.get();
        } catch (DataIntegrityViolationException e) {
            if (ITEM_CATEGORY_FK.equals(Postgres.violatedConstraint(e))) {
                throw new UnknownCategoryException(request.categoryId());
            }
            throw e;
        }
    }
}
