package dev.restbench.runner.manifest;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/** benchmarks.json, bound after schema validation (see {@link ManifestLoader}). */
@JsonIgnoreProperties(ignoreUnknown = true) // "$schema"
public record Manifest(
        int schemaVersion,
        int harnessVersion,
        Defaults defaults,
        Pinning pinning,
        List<Variant> variants,
        Map<String, Dataset> datasets,
        List<Scenario> scenarios,
        Map<String, Profile> profiles,
        String defaultProfile,
        ErrorBudget errorBudget,
        List<MetricDefinition> metrics,
        Sharding sharding) {

    public record Defaults(List<String> command, List<String> jvmOptions, Map<String, String> env,
                           String healthPath, String metricsPath, int healthTimeoutSeconds) {
    }

    public record Pinning(String service, String gatling, String postgres, String note) {
    }

    public record Variant(String name, String description, String artifact, List<String> command, Integer port,
                          String healthPath, String metricsPath, String dialect, List<String> jvmOptions,
                          String cpuSet, Map<String, String> env) {
    }

    public record Dataset(int categories, int items, double heavyShare, long seed) {
    }

    public record Scenario(String name, String description, String simulation, Map<String, Regime> regimes) {
    }

    public record Regime(String description, Map<String, Double> load) {
    }

    /**
     * How a profile measures (docs/verdicts.md, "Method"): {@code trials} starts of every variant in randomized
     * interleaved rounds; in each start, per cell, a warmup until steady (or its cap) and {@code windows} back-to-back
     * windows of {@code windowSeconds}.
     */
    public record Profile(String description, List<String> scenarios, List<String> regimes, int trials, int windows,
                          int windowSeconds, Warmup warmup, Double loadScale, String dataset) {
        public double scale() {
            return loadScale == null ? 1.0 : loadScale;
        }
    }

    /** The steady-state rule of a profile's warmup (SteadyState in the runner). */
    public record Warmup(int minSeconds, int maxSeconds, int stableSeconds, double maxJitMsPerS, double maxDriftPct) {
    }

    public record ErrorBudget(double maxErrorPct, double capacityP99Ms) {
    }

    /**
     * @param version bumped when the definition changes (part of the environment fingerprint, so a new definition
     *                starts a new series instead of looking like a regression)
     * @param primary the regimes in which this metric is a primary one (judged with Holm's correction and counted
     *                by the PR headline); empty = secondary everywhere
     */
    public record MetricDefinition(String id, String label, String unit, String direction, String suite,
                                   String scope, int version, List<String> primary, String description) {
        public boolean biggerIsBetter() {
            return "bigger".equals(direction);
        }

        public boolean primaryIn(String regime) {
            return primary != null && primary.contains(regime);
        }
    }

    public record Sharding(boolean enabled, String runnerLabel) {
    }

    public Optional<Variant> variant(String name) {
        return variants.stream().filter(v -> v.name().equals(name)).findFirst();
    }

    public Optional<Scenario> scenario(String name) {
        return scenarios.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    public MetricDefinition metric(String id) {
        return metrics.stream().filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("metric '" + id + "' is not in the manifest catalogue"));
    }
}
