package dev.restbench.springmvc.category;

import java.time.Instant;

/**
 * A category row as a statement returned it (no entity, no persistence context). The getters are the ones
 * spring-mvc's entity has, so its controller and {@link CategoryResponse} compile against this class unchanged.
 */
public final class Category {

    private final long id;
    private final String code;
    private final String name;
    private final Instant updatedAt;

    public Category(long id, String code, String name, Instant updatedAt) {
        this.id = id;
        this.code = code;
        this.name = name;
        this.updatedAt = updatedAt;
    }

    public long getId() {
        return id;
    }

    public String getCode() {
        return code;
    }

    public String getName() {
        return name;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
