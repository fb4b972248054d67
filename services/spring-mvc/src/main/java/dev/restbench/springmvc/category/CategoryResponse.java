package dev.restbench.springmvc.category;

import java.time.Instant;

public record CategoryResponse(long id, String code, String name, Instant updatedAt) {

    public static CategoryResponse of(Category category) {
        return new CategoryResponse(category.getId(), category.getCode(), category.getName(),
                category.getUpdatedAt());
    }
}
