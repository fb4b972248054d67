package dev.restbench.plain.data;

/** An item write names a category that does not exist: a client error on the field categoryId. (400) */
public final class UnknownCategoryException extends RuntimeException {

    private final long categoryId;

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist", null, false, false);
        this.categoryId = categoryId;
    }

    public long categoryId() {
        return categoryId;
    }
}
