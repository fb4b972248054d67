package dev.restbench.plain.model;

import java.math.BigDecimal;

/**
 * The body of POST/PUT /items. {@code stock} is a Long so that values above 2^31-1 are reported as a validation
 * error on the field instead of a parse failure.
 */
public record ItemRequest(String sku, String name, BigDecimal price, Long stock, String description, Long categoryId) {
}
