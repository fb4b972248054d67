package dev.restbench.webflux.web;

/** The request clashes with the current state (a duplicate code/sku, a category that still has items): 409. */
public class ConflictException extends RuntimeException {

    private final String field;

    /** @param field the request property a unique constraint protects, or null */
    public ConflictException(String message, String field) {
        super(message, null, false, false);
        this.field = field;
    }

    public String field() {
        return field;
    }
}
