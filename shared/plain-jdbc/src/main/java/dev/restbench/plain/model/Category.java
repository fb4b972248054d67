package dev.restbench.plain.model;

import java.time.Instant;

/** A category as the API returns it. */
public record Category(long id, String code, String name, Instant updatedAt) {
}
