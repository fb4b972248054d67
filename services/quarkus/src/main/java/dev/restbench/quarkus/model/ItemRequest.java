package dev.restbench.quarkus.model;

import java.math.BigDecimal;

/**
 * The body of POST/PUT /items. {@code stock} is a Long so that a value above 2^31-1 is a validation error on the
 * field rather than a parse failure.
 */
public record ItemRequest(String sku, String name, BigDecimal price, Long stock, String description, Long categoryId) {
}
