package dev.restbench.plain.model;

/** A validated page number (from 0) and size (1..100). */
public record PageRequest(int page, int size) {

    public static final int DEFAULT_SIZE = 20;
    public static final int MAX_SIZE = 100;

    public PageRequest {
        if (page < 0 || size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("page " + page + ", size " + size);
        }
    }

    public long offset() {
        return (long) page * size;
    }
}
