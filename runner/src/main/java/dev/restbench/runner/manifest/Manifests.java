package dev.restbench.runner.manifest;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.MetricCatalog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * benchmarks.json as the runner reads it: {@link ManifestLoader} (schema, variants resolved, cross-references) plus
 * the one check only the runner can make: the metric catalogue describes exactly the metrics it computes.
 */
public final class Manifests {

    /** Metric ids the runner computes; each must be described in the manifest catalogue. */
    public static final List<String> PRODUCED_METRICS = MetricCatalog.ids();

    private Manifests() {
    }

    public static Manifest load(Path file) {
        return ManifestLoader.load(file, Manifests::metricCatalogue);
    }

    public static Manifest parse(String text, String source) {
        return ManifestLoader.parse(text, source, Manifests::metricCatalogue);
    }

    /**
     * The variants a command works on, the one rule every command uses: the names given, else the profile's list,
     * else every variant (each name known, or a usage error naming the manifest's), then narrowed by {@code where}
     * and the profile's own {@code where}. May be empty; the caller says what that means for it.
     *
     * @param profile null for none
     */
    public static List<Manifest.Variant> select(Manifest manifest, List<String> names, List<String> where,
                                                Manifest.Profile profile) {
        List<String> wanted = !names.isEmpty() ? names
                : profile != null && profile.variants() != null ? profile.variants() : List.of();
        List<Manifest.Variant> variants = new ArrayList<>();
        if (wanted.isEmpty()) {
            variants.addAll(manifest.variants());
        }
        for (String name : wanted) {
            variants.add(manifest.variant(name).orElseThrow(() -> new UsageException("unknown variant '" + name
                    + "' (manifest has: " + variantNames(manifest) + ")")));
        }
        try {
            return VariantFilter.parse(where).and(profile == null ? null : profile.where())
                    .apply(variants, manifest.variants());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** "jersey, spring-mvc, …": the manifest's variant names, for messages. */
    public static String variantNames(Manifest manifest) {
        return String.join(", ", manifest.variants().stream().map(Manifest.Variant::name).toList());
    }

    static List<String> metricCatalogue(Manifest m) {
        List<String> problems = new ArrayList<>();
        Set<String> catalogue = new HashSet<>(m.metrics().stream().map(Manifest.MetricDefinition::id).toList());
        for (String id : PRODUCED_METRICS) {
            if (!catalogue.contains(id)) {
                problems.add("/metrics: no entry for metric '" + id + "' (the runner produces it)");
            }
        }
        for (int i = 0; i < m.metrics().size(); i++) {
            Manifest.MetricDefinition entry = m.metrics().get(i);
            if (!PRODUCED_METRICS.contains(entry.id())) {
                problems.add("/metrics/" + i + "/id: unknown metric '" + entry.id()
                        + "' (the runner does not produce it)");
            }
        }
        return problems;
    }
}
