package dev.restbench.dataset;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * Deterministic rows for a {@link DatasetSpec}. Every row is derived from (seed, kind, id) alone, so any row can be
 * regenerated without generating the ones before it, and the same spec always yields identical rows.
 *
 * <p>Ids, codes and skus follow the contract in docs/ARCHITECTURE.md ("Dataset"), which the Gatling feeders rely
 * on: category i has code CAT-%05d, item j has sku SKU-%07d and category 1 + (j-1) % categories.
 */
public final class DatasetGenerator {

    /** Bump when the rows change, so existing template databases are rebuilt. */
    static final int VERSION = 1;

    /** A fixed clock: timestamps must not depend on when the data was generated. */
    private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

    private static final String[] ADJECTIVES = {
        "Compact", "Sturdy", "Classic", "Portable", "Premium", "Essential", "Modular", "Silent", "Rapid", "Smart",
        "Rugged", "Slim", "Heavy-duty", "Wireless", "Ergonomic", "Vintage", "Eco", "Digital", "Precision", "Foldable"
    };
    private static final String[] NOUNS = {
        "Lamp", "Drill", "Kettle", "Backpack", "Monitor", "Chair", "Router", "Speaker", "Jacket", "Bottle",
        "Keyboard", "Tent", "Camera", "Blender", "Charger", "Desk", "Helmet", "Watch", "Toaster", "Scanner"
    };
    private static final String[] DEPARTMENTS = {
        "Home", "Garden", "Office", "Outdoor", "Kitchen", "Audio", "Sports", "Travel", "Tools", "Lighting"
    };
    private static final String[] WORDS = (
        "durable lightweight design tested warranty delivered material steel aluminium cotton battery hours "
        + "capacity adjustable compatible includes premium finish assembly required instructions safety certified "
        + "recycled packaging dimensions weight colour available customers reviews performance energy efficient "
        + "quiet operation maintenance cleaning replacement parts service support shipping returns quality standard"
    ).split(" ");

    /** ~5 KB: the HEAVY-body scenario's payload size. */
    static final int HEAVY_DESCRIPTION_CHARS = 5_000;

    private final DatasetSpec spec;

    public DatasetGenerator(DatasetSpec spec) {
        this.spec = spec;
    }

    public record CategoryRow(long id, String code, String name, Instant updatedAt) {
    }

    public record ItemRow(long id, String sku, String name, BigDecimal price, int stock, String description,
                          long categoryId, Instant updatedAt) {
    }

    public Stream<CategoryRow> categories() {
        return IntStream.rangeClosed(1, spec.categories()).mapToObj(this::category);
    }

    public Stream<ItemRow> items() {
        return IntStream.rangeClosed(1, spec.items()).mapToObj(this::item);
    }

    public CategoryRow category(long id) {
        SplittableRandom random = randomFor(1, id);
        String name = DEPARTMENTS[random.nextInt(DEPARTMENTS.length)] + " " + NOUNS[random.nextInt(NOUNS.length)]
                + "s " + id;
        return new CategoryRow(id, String.format("CAT-%05d", id), name, timestamp(random));
    }

    public ItemRow item(long id) {
        SplittableRandom random = randomFor(2, id);
        String name = ADJECTIVES[random.nextInt(ADJECTIVES.length)] + " " + NOUNS[random.nextInt(NOUNS.length)]
                + " " + (1 + random.nextInt(999));
        BigDecimal price = BigDecimal.valueOf(99 + random.nextInt(99_900), 2);
        int stock = random.nextInt(1_000);
        boolean heavy = random.nextDouble() < spec.heavyShare();
        String description = heavy ? text(random, HEAVY_DESCRIPTION_CHARS) : text(random, 80 + random.nextInt(220));
        long categoryId = 1 + (id - 1) % spec.categories();
        return new ItemRow(id, String.format("SKU-%07d", id), name, price, stock, description, categoryId,
                timestamp(random));
    }

    private SplittableRandom randomFor(int kind, long id) {
        // Mixing seed, kind and id through SplittableRandom's own mixer keeps rows independent of each other.
        return new SplittableRandom(spec.seed() * 1_000_003L + kind * 0x9E3779B97F4A7C15L + id);
    }

    private static Instant timestamp(SplittableRandom random) {
        return EPOCH.plusSeconds(random.nextInt(180 * 24 * 3600)).plusNanos(random.nextInt(1_000_000) * 1_000L);
    }

    private static String text(SplittableRandom random, int length) {
        StringBuilder text = new StringBuilder(length + 16);
        boolean sentenceStart = true;
        while (text.length() < length) {
            String word = WORDS[random.nextInt(WORDS.length)];
            if (sentenceStart) {
                word = Character.toUpperCase(word.charAt(0)) + word.substring(1);
            }
            text.append(word);
            sentenceStart = random.nextInt(12) == 0;
            text.append(sentenceStart ? ". " : " ");
        }
        text.setLength(length);
        return text.toString().stripTrailing();
    }
}
