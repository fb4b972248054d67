package dev.restbench.plain.model;

/** The body of POST/PUT /categories; unknown properties (id, updatedAt, …) are ignored by the mapper. */
public record CategoryRequest(String code, String name) {
}
