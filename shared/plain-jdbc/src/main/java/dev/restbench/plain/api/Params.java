package dev.restbench.plain.api;

import dev.restbench.plain.model.PageRequest;
import java.util.List;
import java.util.OptionalLong;

/**
 * Parses path and query parameters. They arrive as strings so that a wrong type is a 400 problem detail (JAX-RS
 * would answer a failed {@code @PathParam long} conversion with 404).
 */
public final class Params {

    private Params() {
    }

    public static long id(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw ProblemException.invalidField("id", "must be an integer, got '" + shortened(text) + "'");
        }
    }

    /** Echoes at most 40 characters of a bad value: enough to recognise it, not a reflection of any size. */
    private static String shortened(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "…";
    }

    /**
     * A query parameter's one value, null when absent. openapi.yaml declares each an integer, not an array, and
     * empty values are not allowed (OpenAPI's default): a repeated or empty one is a 400 in every variant, the same
     * rule (issue 22; JAX-RS had taken the first value and an empty one as absent).
     */
    private static String single(String name, List<String> values) {
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw ProblemException.invalidField(name, "must be given at most once, got " + values.size() + " values");
        }
        return values.get(0);
    }

    public static OptionalLong optionalId(String name, List<String> values) {
        String text = single(name, values);
        if (text == null) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text));
        } catch (NumberFormatException e) {
            throw ProblemException.invalidField(name, "must be an integer, got '" + shortened(text) + "'");
        }
    }

    /** page default 0, page >= 0; size default 20, 1 <= size <= 100; absent means the default. */
    public static PageRequest page(List<String> page, List<String> size) {
        int pageNumber = integer("page", single("page", page), 0, 0, Integer.MAX_VALUE);
        int pageSize = integer("size", single("size", size), PageRequest.DEFAULT_SIZE, 1, PageRequest.MAX_SIZE);
        return new PageRequest(pageNumber, pageSize);
    }

    private static int integer(String name, String text, int defaultValue, int min, int max) {
        if (text == null) {
            return defaultValue;
        }
        String rule = max == Integer.MAX_VALUE
                ? "must be an integer >= " + min
                : "must be an integer between " + min + " and " + max;
        try {
            int value = Integer.parseInt(text);
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below, like an out-of-range value
        }
        throw ProblemException.invalidField(name, rule + ", got '" + shortened(text) + "'");
    }
}
