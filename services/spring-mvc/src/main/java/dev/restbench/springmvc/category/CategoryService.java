package dev.restbench.springmvc.category;

import dev.restbench.springmvc.Timestamps;
import dev.restbench.springmvc.web.ConflictException;
import dev.restbench.springmvc.web.NotFoundException;
import dev.restbench.springmvc.web.Paging;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

import java.util.List;

/** Reads run in one read-only transaction per call; writes override it with a read-write transaction. */
@Service
@Transactional(readOnly = true)
public class CategoryService {

    private final CategoryRepository categories;

    public CategoryService(CategoryRepository categories) {
        this.categories = categories;
    }

    public Page<Category> list(Pageable pageable) {
        if (Paging.startsBeyondIntOffset(pageable)) {
            return new PageImpl<>(List.of(), pageable, categories.count());
        }
        return categories.findAll(pageable);
    }

    public Category get(long id) {
        return categories.findById(id).orElseThrow(() -> new NotFoundException("category", id));
    }

    /** One INSERT (identity column: the id comes back with it); a duplicate code fails on category_code_key. */
    @Transactional
    public Category create(CategoryRequest request) {
        return categories.save(new Category(request.code(), request.name(), Timestamps.now()));
    }

    /** SELECT + UPDATE: the loaded entity is changed in place, so there is no merge (and no second SELECT). */
    @Transactional
    public Category update(long id, CategoryRequest request) {
        Category category = get(id);
        category.update(request.code(), request.name(), Timestamps.now());
        // Flush here so that a duplicate code surfaces as DataIntegrityViolationException from the repository,
        // not as a commit failure.
        categories.flush();
        return category;
    }

    /** One DELETE; the foreign key of item refuses it while the category has items. */
    @Transactional
    public void delete(long id) {
        int deleted;
        try {
            deleted = categories.deleteCategoryById(id);
        } catch (DataIntegrityViolationException e) {
            throw new ConflictException("category " + id + " still has items", e);
        }
        if (deleted == 0) {
            throw new NotFoundException("category", id);
        }
    }
}
