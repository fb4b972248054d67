package dev.restbench.gatling;

import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Every knob of a simulation, read once from system properties (-Dname=value). Bad values fail fast with the
 * property's name, before any load is sent. The table of properties is in gatling/README.md.
 */
public record BenchConfig(
        String baseUrl,
        Dialect dialect,
        Regime regime,
        int users,
        double rate,
        int durationSeconds,
        int datasetCategories,
        int datasetItems,
        String runTag,
        double maxErrorPct,
        int maxP99Ms,
        java.util.Optional<java.nio.file.Path> stopFile,
        java.util.Optional<java.nio.file.Path> pauseFile) {

    public enum Dialect { PLAIN, HAL }

    public enum Regime { CAPACITY, LATENCY }

    public static BenchConfig fromSystemProperties() {
        return new BenchConfig(
                baseUrl(string("baseUrl", "http://127.0.0.1:8081")),
                choice("dialect", "plain", Dialect.class),
                choice("regime", "latency", Regime.class),
                positiveInt("users", 16),
                positiveDouble("rate", 50),
                positiveInt("duration", 30),
                positiveInt("dataset.categories", 2000),
                positiveInt("dataset.items", 100000),
                runTag(string("runTag", randomTag())),
                nonNegativeDouble("maxErrorPct", 1.0),
                positiveInt("maxP99Ms", 2000),
                java.util.Optional.ofNullable(System.getProperty("stopFile")).filter(v -> !v.isBlank())
                        .map(java.nio.file.Path::of),
                java.util.Optional.ofNullable(System.getProperty("pauseFile")).filter(v -> !v.isBlank())
                        .map(java.nio.file.Path::of));
    }

    /** A session driven by the runner: it says when to stop (by creating the stop file) and judges the windows. */
    public boolean session() {
        return stopFile.isPresent();
    }

    private static String string(String name, String fallback) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }

    private static String baseUrl(String value) {
        if (!value.startsWith("http://") && !value.startsWith("https://")) {
            throw invalid("baseUrl", value, "an http:// or https:// URL");
        }
        return value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
    }

    private static <E extends Enum<E>> E choice(String name, String fallback, Class<E> type) {
        String value = string(name, fallback);
        try {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw invalid(name, value, "one of " + java.util.Arrays.toString(type.getEnumConstants()).toLowerCase(Locale.ROOT));
        }
    }

    private static int positiveInt(String name, int fallback) {
        String value = string(name, Integer.toString(fallback));
        try {
            int parsed = Integer.parseInt(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(name, value, "a positive integer");
    }

    private static double positiveDouble(String name, double fallback) {
        double parsed = nonNegativeDouble(name, fallback);
        if (parsed == 0) {
            throw invalid(name, "0", "a positive number");
        }
        return parsed;
    }

    private static double nonNegativeDouble(String name, double fallback) {
        String value = string(name, Double.toString(fallback));
        try {
            double parsed = Double.parseDouble(value);
            if (parsed >= 0 && Double.isFinite(parsed)) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(name, value, "a non-negative number");
    }

    /** The tag goes into skus and codes (at most 64 chars): keep it short and plain. */
    private static String runTag(String value) {
        if (!value.matches("[A-Za-z0-9]{1,16}")) {
            throw invalid("runTag", value, "1 to 16 letters or digits");
        }
        return value;
    }

    private static String randomTag() {
        byte[] bytes = new byte[4];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static IllegalArgumentException invalid(String name, String value, String expected) {
        return new IllegalArgumentException("Invalid -D" + name + "=" + value + ": expected " + expected);
    }
}
