package dev.restbench.gatling;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Read targets from the deterministic dataset (docs/ARCHITECTURE.md "Dataset"): category ids 1..categories and
 * item ids 1..items always exist and are never deleted by a simulation, so every read should succeed. Cache keys are
 * the ones every variant holds from the start ({@code key0} … {@code key999}): every cache read is a hit.
 */
public final class Feeders {

    /**
     * List pages are drawn from the first {@value} pages only: a deep OFFSET page costs the database a scan of every
     * skipped row, which would turn a "list" benchmark into an OFFSET benchmark.
     */
    static final int MAX_LIST_PAGES = 50;
    /** The cache keys held from the start (openapi.yaml, getCacheValue). */
    static final int CACHE_KEYS = 1_000;

    private Feeders() {
    }

    /** Uniformly random dataset ids, list pages and cache keys, one fresh draw per iteration. */
    public static Iterator<Map<String, Object>> datasetReads(BenchConfig config) {
        int itemPages = pages(config.datasetItems());
        int categoryPages = pages(config.datasetCategories());
        return Stream.generate(() -> {
            ThreadLocalRandom random = ThreadLocalRandom.current();
            return Map.<String, Object>of(
                    Operations.ITEM_ID, 1 + random.nextInt(config.datasetItems()),
                    Operations.CATEGORY_ID, 1 + random.nextInt(config.datasetCategories()),
                    Operations.ITEM_PAGE, random.nextInt(itemPages),
                    Operations.CATEGORY_PAGE, random.nextInt(categoryPages),
                    Operations.CACHE_KEY, "key" + random.nextInt(CACHE_KEYS));
        }).iterator();
    }

    /** Number of full pages, capped: every page drawn has a first element. */
    static int pages(int rows) {
        return Math.max(1, Math.min(MAX_LIST_PAGES, rows / Operations.PAGE_SIZE));
    }
}
