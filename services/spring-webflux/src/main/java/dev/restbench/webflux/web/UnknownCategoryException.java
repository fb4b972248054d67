package dev.restbench.webflux.web;

/** An item's categoryId that names no category: the request is invalid (400), not the resource missing. */
public class UnknownCategoryException extends RuntimeException {

    public UnknownCategoryException(long categoryId) {
        super("category " + categoryId + " does not exist", null, false, false);
    }
}
