package dev.restbench.plain.model;

import java.math.BigDecimal;
import java.time.Instant;

/** An item as the API returns it: always with its category inline. */
public record Item(
        long id,
        String sku,
        String name,
        BigDecimal price,
        int stock,
        String description,
        Category category,
        Instant updatedAt) {
}
