package dev.restbench.datarest.catalog;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.repository.query.Param;
import org.springframework.data.rest.core.annotation.RepositoryRestResource;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.data.rest.core.annotation.RestResource;

import java.util.Optional;

/**
 * Exported as {@code /items}; collections render the {@link ItemWithCategory} excerpt, so every finder that
 * feeds a rendered item fetches its category in the same statement (no N+1, no lazy proxy reaching Jackson).
 *
 * <p>Read-only transactional as Spring Data recommends: the inherited CRUD methods keep their own transaction
 * settings ({@code save}, {@code delete} read-write), and the derived finder runs its page query and count query
 * in one transaction on one connection instead of one each.
 */
@Transactional(readOnly = true)
@RepositoryRestResource(path = "items", collectionResourceRel = "items", itemResourceRel = "item",
        excerptProjection = ItemWithCategory.class)
public interface ItemRepository extends JpaRepository<Item, Long> {

    @Override
    @EntityGraph(attributePaths = "category")
    Page<Item> findAll(Pageable pageable);

    /** Also serves {@code /items/{id}?projection=itemWithCategory} and {@code /items/{id}/category}. */
    @Override
    @EntityGraph(attributePaths = "category")
    Optional<Item> findById(Long id);

    /** {@code GET /items/search/byCategory?categoryId=&page=&size=}. */
    @RestResource(path = "byCategory", rel = "byCategory")
    @EntityGraph(attributePaths = "category")
    Page<Item> findByCategoryId(@Param("categoryId") Long categoryId, Pageable pageable);
}
