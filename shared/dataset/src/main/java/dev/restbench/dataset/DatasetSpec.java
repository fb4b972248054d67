package dev.restbench.dataset;

/**
 * What to generate: {@code categories} categories and {@code items} items, a {@code heavyShare} of which carry a
 * ~5 KB description, all derived from {@code seed}. The same spec always yields the same rows.
 */
public record DatasetSpec(int categories, int items, double heavyShare, long seed) {

    /** The benchmark default: the reference report used 100K items. */
    public static final DatasetSpec DEFAULT = new DatasetSpec(2_000, 100_000, 0.10, 42);

    /** Small enough for tests: loads in well under a second. */
    public static final DatasetSpec SMALL = new DatasetSpec(20, 500, 0.10, 42);

    public DatasetSpec {
        if (categories < 1) {
            throw new IllegalArgumentException("categories must be at least 1, got " + categories);
        }
        if (items < 0) {
            throw new IllegalArgumentException("items must not be negative, got " + items);
        }
        if (!(heavyShare >= 0 && heavyShare <= 1)) {
            throw new IllegalArgumentException("heavyShare must be between 0 and 1, got " + heavyShare);
        }
    }

    public static DatasetSpec named(String name) {
        return switch (name) {
            case "default" -> DEFAULT;
            case "small" -> SMALL;
            default -> throw new IllegalArgumentException("unknown dataset size '" + name + "' (use default or small)");
        };
    }

    /** A short stable label, stored on the template database so a changed spec forces a rebuild. */
    public String label() {
        return "categories=" + categories + " items=" + items + " heavyShare=" + heavyShare + " seed=" + seed
                + " generator=" + DatasetGenerator.VERSION;
    }
}
