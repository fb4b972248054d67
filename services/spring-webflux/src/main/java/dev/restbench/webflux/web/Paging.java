package dev.restbench.webflux.web;

/**
 * The paging rules of the plain API: page >= 0, 1 <= size <= 100 (validated, never clamped), ordered by id. The
 * query parameters are taken as text and parsed here, so a wrong type and a value out of range give the same
 * problem shapes as spring-mvc's (its method validation and type mismatch answers).
 */
public record Paging(int page, int size) {

    public static final int MAX_SIZE = 100;

    /** The row offset; a long, so every valid page (up to 2^31-1 × 100) can be asked for (LIMIT/OFFSET bigint). */
    public long offset() {
        return (long) page * size;
    }

    public static Paging of(String page, String size) {
        int p = parse("page", page, 0);
        int s = parse("size", size, 20);
        if (p < 0) {
            throw InvalidInputException.invalid("page", "must be greater than or equal to 0");
        }
        if (s < 1) {
            throw InvalidInputException.invalid("size", "must be greater than or equal to 1");
        }
        if (s > MAX_SIZE) {
            throw InvalidInputException.invalid("size", "must be less than or equal to " + MAX_SIZE);
        }
        return new Paging(p, s);
    }

    /**
     * Absent is the default; empty is no integer (openapi.yaml: allowEmptyValue is false), as in every variant
     * (issue 22). A repeated parameter arrives joined by commas ("1,2"): no integer either.
     */
    private static int parse(String name, String value, int defaultValue) {
        if (value == null) {
            return defaultValue;
        }
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw InvalidInputException.wrongType(name);
        }
    }

    /** An optional long query parameter ({@code categoryId}); null when absent, empty as in {@link #parse}. */
    public static Long optionalLong(String name, String value) {
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw InvalidInputException.wrongType(name);
        }
    }

    /** A path id: not a long is a wrong type (400), as in spring-mvc. */
    public static long id(String name, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw InvalidInputException.wrongType(name);
        }
    }
}
