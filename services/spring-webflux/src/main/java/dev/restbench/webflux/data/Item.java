package dev.restbench.webflux.data;

import java.math.BigDecimal;
import java.time.Instant;

/** An item row joined with its category, also the response body (the category inline). */
public record Item(long id, String sku, String name, BigDecimal price, int stock, String description,
        Category category, Instant updatedAt) {
}
