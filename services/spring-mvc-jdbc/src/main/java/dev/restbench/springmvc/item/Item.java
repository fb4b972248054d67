package dev.restbench.springmvc.item;

import dev.restbench.springmvc.category.Category;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * An item row with its category, as one statement (item JOIN category) returned it. The getters are the ones
 * spring-mvc's entity has, so its controller and {@link ItemResponse} compile against this class unchanged.
 */
public final class Item {

    private final long id;
    private final String sku;
    private final String name;
    private final BigDecimal price;
    private final int stock;
    private final String description;
    private final Category category;
    private final Instant updatedAt;

    public Item(long id, String sku, String name, BigDecimal price, int stock, String description,
            Category category, Instant updatedAt) {
        this.id = id;
        this.sku = sku;
        this.name = name;
        this.price = price;
        this.stock = stock;
        this.description = description;
        this.category = category;
        this.updatedAt = updatedAt;
    }

    public long getId() {
        return id;
    }

    public String getSku() {
        return sku;
    }

    public String getName() {
        return name;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public int getStock() {
        return stock;
    }

    public String getDescription() {
        return description;
    }

    public Category getCategory() {
        return category;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
