package dev.restbench.plain.api;

/** One invalid field of a request, listed in a problem detail's "errors". */
public record FieldError(String field, String message) {
}
