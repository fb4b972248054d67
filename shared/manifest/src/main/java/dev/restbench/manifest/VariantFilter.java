package dev.restbench.manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Variants by classification: every key must match its glob ({@code *} any run of characters, {@code ?} one;
 * case-insensitive), e.g. {@code server=*} or {@code framework=spring*}. Keys are the classification keys plus
 * runtime, runtimeVersion, jdk and dialect ({@link Manifest.Variant#labels()}). A variant without the key does not
 * match; a key no variant has is an error, so a typo never selects nothing silently.
 */
public record VariantFilter(Map<String, String> globs) {

    public static final VariantFilter ALL = new VariantFilter(Map.of());

    /** From {@code key=glob} arguments (e.g. repeated --where options). */
    public static VariantFilter parse(List<String> expressions) {
        Map<String, String> globs = new LinkedHashMap<>();
        for (String expression : expressions) {
            int eq = expression.indexOf('=');
            if (eq <= 0 || eq == expression.length() - 1) {
                throw new IllegalArgumentException("--where '" + expression + "' is not key=glob (e.g. server=jetty, framework=spring*)");
            }
            globs.put(expression.substring(0, eq).trim(), expression.substring(eq + 1).trim());
        }
        return new VariantFilter(globs);
    }

    /** This filter with another's keys added (the other's value wins for a key both have). */
    public VariantFilter and(Map<String, String> more) {
        if (more == null || more.isEmpty()) {
            return this;
        }
        Map<String, String> merged = new LinkedHashMap<>(globs);
        merged.putAll(more);
        return new VariantFilter(merged);
    }

    public boolean isEmpty() {
        return globs.isEmpty();
    }

    /** The variants that match, in the given order. @throws IllegalArgumentException for a key no variant has */
    public List<Manifest.Variant> apply(List<Manifest.Variant> variants, List<Manifest.Variant> all) {
        TreeSet<String> known = new TreeSet<>();
        all.forEach(v -> known.addAll(v.labels().keySet()));
        for (String key : globs.keySet()) {
            if (!known.contains(key)) {
                throw new IllegalArgumentException("--where: no variant has a classification key '" + key + "' (known: "
                        + String.join(", ", known) + ")");
            }
        }
        List<Manifest.Variant> out = new ArrayList<>();
        for (Manifest.Variant variant : variants) {
            if (matches(variant)) {
                out.add(variant);
            }
        }
        return out;
    }

    public boolean matches(Manifest.Variant variant) {
        Map<String, String> labels = variant.labels();
        return globs.entrySet().stream().allMatch(e -> labels.containsKey(e.getKey())
                && glob(e.getValue()).matcher(labels.get(e.getKey())).matches());
    }

    static Pattern glob(String glob) {
        StringBuilder regex = new StringBuilder();
        for (char c : glob.toCharArray()) {
            switch (c) {
                case '*' -> regex.append(".*");
                case '?' -> regex.append('.');
                default -> regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);
    }

    @Override
    public String toString() {
        return String.join(" ", globs.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).toList());
    }
}
