package dev.restbench.support.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ValueCacheTest {

    @Test
    void holdsTheFirstThousandKeysFromTheStart() {
        ValueCache cache = new ValueCache();
        assertThat(cache.estimatedSize()).isEqualTo(ValueCache.PREWARMED);
        assertThat(cache.get("key0")).isEqualTo(new ValueCache.Entry("key0", "value-key0"));
        assertThat(cache.get("key999").value()).isEqualTo("value-key999");
        assertThat(cache.estimatedSize()).isEqualTo(ValueCache.PREWARMED);
    }

    @Test
    void computesAndHoldsAMissingKey() {
        ValueCache cache = new ValueCache();
        assertThat(cache.get("other").value()).isEqualTo("value-other");
        assertThat(cache.estimatedSize()).isEqualTo(ValueCache.PREWARMED + 1);
    }

    @Test
    void holdsAtMostTenThousandEntries() {
        ValueCache cache = new ValueCache();
        for (int i = 0; i < 3 * ValueCache.MAX_ENTRIES; i++) {
            cache.get("k" + i);
        }
        assertThat(cache.estimatedSize()).isEqualTo(ValueCache.MAX_ENTRIES);
    }

    @Test
    void acceptsOnlyTheContractsKeys() {
        assertThat(ValueCache.isKey("key1")).isTrue();
        assertThat(ValueCache.isKey("A_b-9")).isTrue();
        assertThat(ValueCache.isKey("k".repeat(64))).isTrue();
        assertThat(ValueCache.isKey("k".repeat(65))).isFalse();
        assertThat(ValueCache.isKey("")).isFalse();
        assertThat(ValueCache.isKey(null)).isFalse();
        for (String key : new String[]{"a.b", "a b", "été", "a+b", "a~b", "a\u0000b", "a/b", "ａ", "a\nb"}) {
            assertThat(ValueCache.isKey(key)).as(key).isFalse();
        }
    }

    @Test
    void thePatternAcceptsWhatIsKeyAccepts() {
        java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(ValueCache.KEY_PATTERN);
        for (int c = 0; c < 0x3000; c++) {
            String key = "k" + (char) c;
            assertThat(pattern.matcher(key).matches()).as("U+%04X", c).isEqualTo(ValueCache.isKey(key));
        }
        for (String key : new String[]{"", "k".repeat(64), "k".repeat(65)}) {
            assertThat(pattern.matcher(key).matches()).as(key).isEqualTo(ValueCache.isKey(key));
        }
    }
}
