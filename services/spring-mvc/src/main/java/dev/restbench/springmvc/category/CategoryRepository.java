package dev.restbench.springmvc.category;

import org.springframework.data.jpa.repository.JpaRepository;
import org.springframework.data.jpa.repository.Modifying;
import org.springframework.data.jpa.repository.Query;

public interface CategoryRepository extends JpaRepository<Category, Long> {

    /**
     * One DELETE statement. The inherited {@code deleteById} loads the entity first (a SELECT); a category that
     * still has items is refused by the item_category_fk constraint, which is race-free.
     *
     * @return the number of rows deleted (0 = unknown id)
     */
    @Modifying
    @Query("delete from Category c where c.id = :id")
    int deleteCategoryById(long id);
}
