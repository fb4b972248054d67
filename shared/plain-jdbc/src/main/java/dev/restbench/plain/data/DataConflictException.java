package dev.restbench.plain.data;

/** A write conflicts with existing rows: a duplicate unique key, or a category that still has items. (409) */
public final class DataConflictException extends RuntimeException {

    public DataConflictException(String message) {
        super(message, null, false, false);
    }
}
