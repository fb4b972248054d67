package dev.restbench.support.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;

/**
 * The no-database workload's cache ({@code GET /cache/{key}}, the contract's {@code cache} tag), as the Spring /
 * Quarkus / Go methodology builds it: Caffeine, at most {@value #MAX_ENTRIES} entries, no expiry, {@value #PREWARMED}
 * entries ({@code key0} … {@code key999}) held from the start, a missing value computed as {@code "value-" + key}.
 * Every JVM variant serves it through this one class, so what differs between their figures is the HTTP stack
 * around it; each framework checks the key and writes the {@link Entry} its own way.
 */
public final class ValueCache {

    public static final int MAX_ENTRIES = 10_000;
    public static final int PREWARMED = 1_000;
    /** The longest key the contract accepts. */
    public static final int MAX_KEY_LENGTH = 64;
    /** The keys the contract accepts, for frameworks that validate with a pattern; {@link #isKey} checks the same. */
    public static final String KEY_PATTERN = "[A-Za-z0-9_-]{1," + MAX_KEY_LENGTH + "}";

    /** What the endpoint answers: the key and its value. */
    public record Entry(String key, String value) {
    }

    private final Cache<String, String> cache = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

    public ValueCache() {
        for (int i = 0; i < PREWARMED; i++) {
            String key = "key" + i;
            cache.put(key, valueOf(key));
        }
    }

    /** The entry of a key the contract accepts ({@link #isKey}); computed and held when the cache lacks it. */
    public Entry get(String key) {
        return new Entry(key, cache.get(key, ValueCache::valueOf));
    }

    /** 1 to {@value #MAX_KEY_LENGTH} characters, each an ASCII letter, a digit, {@code -} or {@code _}. */
    public static boolean isKey(String key) {
        if (key == null || key.isEmpty() || key.length() > MAX_KEY_LENGTH) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** What a 400 for a key outside the contract says. */
    public static String invalidKeyMessage() {
        return "a cache key is 1 to " + MAX_KEY_LENGTH + " characters, each an ASCII letter, a digit, '-' or '_'";
    }

    long estimatedSize() {
        cache.cleanUp();
        return cache.estimatedSize();
    }

    private static String valueOf(String key) {
        return "value-" + key;
    }
}
