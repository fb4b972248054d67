package dev.restbench.webflux.data;

import java.time.Instant;

/** A category row, also the response body. */
public record Category(long id, String code, String name, Instant updatedAt) {
}
