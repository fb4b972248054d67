package dev.restbench.springmvc.category;

import dev.restbench.springmvc.Timestamps;
import dev.restbench.springmvc.web.ConflictException;
import dev.restbench.springmvc.web.NotFoundException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.data.domain.Page;
import org.springframework.data.domain.PageImpl;
import org.springframework.data.domain.Pageable;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Reads run in one read-only transaction per call, writes in a read-write one, as in spring-mvc (its services'
 * transactions, over JDBC instead of JPA). Every write is one statement: no SELECT before an UPDATE.
 */
@Service
@Transactional(readOnly = true)
public class CategoryService {

    private final CategoryRepository categories;

    public CategoryService(CategoryRepository categories) {
        this.categories = categories;
    }

    /** Count, then the page (jersey's order). */
    public Page<Category> list(Pageable pageable) {
        long total = categories.count();
        return new PageImpl<>(categories.findPage(pageable.getPageSize(), pageable.getOffset()), pageable, total);
    }

    public Category get(long id) {
        return categories.findById(id).orElseThrow(() -> new NotFoundException("category", id));
    }

    /** One INSERT … RETURNING; a duplicate code fails on category_code_key (409 from ApiExceptionHandler). */
    @Transactional
    public Category create(CategoryRequest request) {
        return categories.insert(request, Timestamps.now());
    }

    /** One UPDATE … RETURNING; no row is an unknown id. */
    @Transactional
    public Category update(long id, CategoryRequest request) {
        return categories.update(id, request, Timestamps.now())
                .orElseThrow(() -> new NotFoundException("category", id));
    }

    /** One DELETE; the foreign key of item refuses it while the category has items. */
    @Transactional
    public void delete(long id) {
        int deleted;
        try {
            deleted = categories.delete(id);
        } catch (DataIntegrityViolationException e) {
            throw new ConflictException("category " + id + " still has items", e);
        }
        if (deleted == 0) {
            throw new NotFoundException("category", id);
        }
    }
}
