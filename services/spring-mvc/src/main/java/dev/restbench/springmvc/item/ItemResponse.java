package dev.restbench.springmvc.item;

import dev.restbench.springmvc.category.CategoryResponse;

import java.math.BigDecimal;
import java.time.Instant;

/** An item with its category inline; callers pass items whose category was fetched with them. */
public record ItemResponse(long id, String sku, String name, BigDecimal price, int stock, String description,
        CategoryResponse category, Instant updatedAt) {

    public static ItemResponse of(Item item) {
        return new ItemResponse(item.getId(), item.getSku(), item.getName(), item.getPrice(), item.getStock(),
                item.getDescription(), CategoryResponse.of(item.getCategory()), item.getUpdatedAt());
    }
}
