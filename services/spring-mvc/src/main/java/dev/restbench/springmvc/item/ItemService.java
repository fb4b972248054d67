package dev.restbench.springmvc.item;

import dev.restbench.springmvc.Timestamps;
import dev.restbench.springmvc.category.Category;
import dev.restbench.springmvc.category.CategoryRepository;
import dev.restbench.springmvc.web.NotFoundException;
import dev.restbench.springmvc.web.Paging;
import dev.restbench.springmvc.web.UnknownCategoryException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.math.RoundingMode;
import java.util.List;

/**
 * Reads run in one read-only transaction per call (one connection checkout, a page's SELECT and count together,
 * and a COMMIT instead of the ROLLBACK a pool connection without auto-commit gets when nobody commits); writes
 * override it with a read-write transaction.
 */
@Service
@Transactional(readOnly = true)
public class ItemService {

    private final ItemRepository items;
    private final CategoryRepository categories;

    public ItemService(ItemRepository items, CategoryRepository categories) {
        this.items = items;
        this.categories = categories;
    }

    /** All items, or those of one category (an unknown category gives an empty page). */
    public Page<Item> list(Long categoryId, Pageable pageable) {
        if (Paging.startsBeyondIntOffset(pageable)) {
            long total = categoryId == null ? items.count() : items.countByCategoryId(categoryId);
            return new PageImpl<>(List.of(), pageable, total);
        }
        return categoryId == null ? items.findAll(pageable) : items.findByCategoryId(categoryId, pageable);
    }

    /**
     * The items of an existing category (404 otherwise). Whether the category exists is only asked when the page
     * comes back empty: an item row proves its category exists (foreign key).
     */
    public Page<Item> listOfCategory(long categoryId, Pageable pageable) {
        Page<Item> page = list(categoryId, pageable);
        if (!page.hasContent() && !categories.existsById(categoryId)) {
            throw new NotFoundException("category", categoryId);
        }
        return page;
    }

    public Item get(long id) {
        return items.findWithCategoryById(id).orElseThrow(() -> new NotFoundException("item", id));
    }

    /** SELECT category (it must exist, and the response shows it) + INSERT. */
    @Transactional
    public Item create(ItemRequest request) {
        Item item = new Item();
        apply(request, item, existingCategory(request.categoryId()));
        return items.save(item);
    }

    /** SELECT item with its category + UPDATE; one more SELECT when the item moves to another category. */
    @Transactional
    public Item update(long id, ItemRequest request) {
        Item item = get(id);
        Category category = item.getCategory().getId().equals(request.categoryId())
                ? item.getCategory()
                : existingCategory(request.categoryId());
        apply(request, item, category);
        // Flush here so that a duplicate sku surfaces as DataIntegrityViolationException from the repository,
        // not as a commit failure.
        items.flush();
        return item;
    }

    /** One DELETE. */
    @Transactional
    public void delete(long id) {
        if (items.deleteItemById(id) == 0) {
            throw new NotFoundException("item", id);
        }
    }

    private Category existingCategory(long categoryId) {
        return categories.findById(categoryId).orElseThrow(() -> new UnknownCategoryException(categoryId));
    }

    private static void apply(ItemRequest request, Item item, Category category) {
        // Validation allowed at most two decimals; scale 2 is what numeric(10,2) stores and returns.
        item.update(request.sku(), request.name(), request.price().setScale(2, RoundingMode.UNNECESSARY),
                request.stock(), request.description(), category, Timestamps.now());
    }
}
