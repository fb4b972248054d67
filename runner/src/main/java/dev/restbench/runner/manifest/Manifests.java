package dev.restbench.runner.manifest;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
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
