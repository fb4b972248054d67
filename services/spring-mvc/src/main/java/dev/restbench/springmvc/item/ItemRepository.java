package dev.restbench.springmvc.item;

import org.springframework.data.domain.Page;
import org.springframework.data.domain.Pageable;
import org.springframework.data.jpa.repository.EntityGraph;
import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

import java.util.Optional;

/**
 * Every query that returns items for a response fetches their category in the same statement (an entity graph
 * is a join fetch), so there is no per-row category load. The count queries Spring Data derives for the pages
 * do not join category: {@code category.id} is the item's own category_id column.
 */
public interface ItemRepository extends JpaRepository<Item, Long> {

    @EntityGraph(attributePaths = "category")
    Optional<Item> findWithCategoryById(long id);

    @Override
    @EntityGraph(attributePaths = "category")
    Page<Item> findAll(Pageable pageable);

    @EntityGraph(attributePaths = "category")
    Page<Item> findByCategoryId(long categoryId, Pageable pageable);

    long countByCategoryId(long categoryId);

    /**
     * One DELETE statement; the inherited {@code deleteById} loads the entity first (a SELECT).
     *
     * @return the number of rows deleted (0 = unknown id)
     */
    @Modifying
    @Query("delete from Item i where i.id = :id")
    int deleteItemById(long id);
}
