package dev.restbench.runner.run;

import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.UsageException;
import dev.restbench.manifest.Manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** What one run measures: the profile, the chosen variants and scenarios, the regimes, and the plan. */
public record RunSelection(String profileName, Manifest.Profile profile, Manifest.Dataset dataset,
                           List<Manifest.Variant> variants, List<Manifest.Scenario> scenarios,
                           List<String> regimes, RunPlan plan) {

    static final List<String> ALL_REGIMES = List.of("capacity", "latency");

    public static RunSelection of(Manifest manifest, RunOptions options) {
        String profileName = options.profile().orElse(manifest.defaultProfile());
        Manifest.Profile profile = manifest.profiles().get(profileName);
        if (profile == null) {
            throw new UsageException("unknown profile '" + profileName + "' (manifest has: "
                    + String.join(", ", manifest.profiles().keySet()) + ")");
        }
        for (String name : options.services().keySet()) {
            if (manifest.variant(name).isEmpty()) {
                throw new UsageException("--services: unknown variant '" + name + "' (manifest has: "
                        + variantNames(manifest) + ")");
            }
        }
        // With --services, only variants that have a URL: all of them when none is named.
        List<String> names = options.variants();
        if (names.isEmpty() && !options.services().isEmpty()) {
            names = manifest.variants().stream().map(Manifest.Variant::name)
                    .filter(options.services()::containsKey).toList();
        }
        for (String name : names) {
            if (!options.services().isEmpty() && !options.services().containsKey(name)) {
                throw new UsageException("variant '" + name + "' has no URL in --services");
            }
        }
        List<Manifest.Variant> variants = dev.restbench.runner.manifest.Manifests.select(manifest, names,
                options.where(), profile);
        VariantFilter where = VariantFilter.parse(options.where()).and(profile.where());
        if (variants.isEmpty()) {
            throw new UsageException("no variant left to run: " + (where.isEmpty() ? "" : "none of them matches --where "
                    + where + "; ") + "the manifest has: " + variantNames(manifest));
        }
        List<String> scenarioNames = !options.scenarios().isEmpty() ? options.scenarios()
                : profile.scenarios() != null ? profile.scenarios()
                : manifest.scenarios().stream().map(Manifest.Scenario::name).toList();
        List<Manifest.Scenario> scenarios = new ArrayList<>();
        for (String name : scenarioNames) {
            scenarios.add(manifest.scenario(name).orElseThrow(() -> new UsageException("unknown scenario '" + name
                    + "' (manifest has: " + String.join(", ", manifest.scenarios().stream().map(Manifest.Scenario::name).toList()) + ")")));
        }
        List<String> profileRegimes = profile.regimes() != null ? profile.regimes() : ALL_REGIMES;
        for (String regime : options.regimes()) {
            if (!profileRegimes.contains(regime)) {
                throw new UsageException("--regimes: '" + regime + "' is not a regime of profile " + profileName
                        + " (it has: " + String.join(", ", profileRegimes) + ")");
            }
        }
        List<String> regimes = options.regimes().isEmpty() ? profileRegimes
                : profileRegimes.stream().filter(options.regimes()::contains).toList();
        long seed = options.seed().orElseGet(() -> new java.security.SecureRandom().nextLong() & 0xffffffffL);
        RunPlan plan = RunPlan.of(variants, scenarios, regimes, profile.trials(), seed);
        return new RunSelection(profileName, profile, manifest.datasets().get(profile.dataset()), variants, scenarios,
                regimes, plan);
    }

    private static String variantNames(Manifest manifest) {
        return dev.restbench.runner.manifest.Manifests.variantNames(manifest);
    }

    /** Seconds a guess allows for a service's start and stop, and for each cell's Gatling start (not in the bound). */
    static final double START_S = 10;
    static final double GATLING_OVERHEAD_S = 6;

    /**
     * A lower bound on the run's wall time, in seconds: every start's warmup cycles and, per cell, the warmup at its
     * minimum and the windows. Start-ups, dataset reloads, re-measures and the builds are left out, so no run of this
     * plan in which every cell measures is shorter. Starts of the variants named in {@code skipped} (their runtime
     * is missing: they fail at once) count nothing.
     */
    long minimumSeconds(Set<String> skipped) {
        Manifest.Warmup w = profile.warmup();
        long seconds = 0;
        for (RunPlan.Trial trial : plan.trials()) {
            if (!skipped.contains(trial.variant().name())) {
                seconds += w.cycleSeconds() + (long) trial.cells().size()
                        * (w.minSeconds() + (long) profile.windows() * profile.windowSeconds());
            }
        }
        return seconds;
    }

    /**
     * About the longest the run takes, in seconds, builds left out: the sum of {@link #worstSeconds} over the starts
     * of the variants not in {@code skipped}.
     */
    long atCapSeconds(Set<String> skipped) {
        return Math.round(plan.trials().stream().filter(t -> !skipped.contains(t.variant().name()))
                .mapToDouble(this::worstSeconds).sum());
    }

    /**
     * About the longest one start takes: its guessed start-up and warmup cycles and, per cell, Gatling's start and, for
     * the windows and each re-measure, a warmup at its cap and the windows (a re-measure resumes the warmup on a fresh
     * run of the rule, CellSession).
     */
    double worstSeconds(RunPlan.Trial trial) {
        Manifest.Warmup w = profile.warmup();
        double measure = w.maxSeconds() + (double) profile.windows() * profile.windowSeconds();
        return START_S + w.cycleSeconds()
                + trial.cells().size() * (GATLING_OVERHEAD_S + (1 + CellSession.MAX_REMEASURES) * measure);
    }

    /**
     * A guess of one start's wall time for the progress line's ETA: its start-up, the cycles of its first cell, and
     * per cell a warmup at half its range, the windows and Gatling's start.
     */
    double expectedSeconds(RunPlan.Trial trial) {
        Manifest.Warmup w = profile.warmup();
        double cell = (w.minSeconds() + w.maxSeconds()) / 2.0 + profile.windows() * profile.windowSeconds()
                + GATLING_OVERHEAD_S;
        return START_S + w.cycleSeconds() + trial.cells().size() * cell;
    }

    /**
     * "at least … (…), at most about … (…)": the bounds of the run's wall time without the starts of the variants in
     * {@code skipped} (their runtime is missing: never begun), as the dry run prints them.
     */
    String wallTime(Set<String> skipped) {
        return "at least " + duration(minimumSeconds(skipped))
                + " (every warmup at its minimum; start-ups, dataset reloads and builds not counted), at most about "
                + duration(atCapSeconds(skipped))
                + " (every warmup at its cap, every cell measured again after a warmup at its cap)";
    }

    /** "16 h 12 min", "9 min": a duration for a person. */
    static String duration(long seconds) {
        long minutes = Math.round(seconds / 60.0);
        return minutes >= 60 ? minutes / 60 + " h " + minutes % 60 + " min" : minutes + " min";
    }

    /** Number of measured windows. */
    int windows() {
        return plan.trials().stream().mapToInt(t -> t.cells().size()).sum() * profile.windows();
    }

    String describe() {
        StringBuilder text = new StringBuilder();
        text.append("profile ").append(profileName).append(": ").append(profile.description()).append('\n');
        text.append("variants: ").append(String.join(", ", variants.stream().map(Manifest.Variant::name).toList()))
                .append('\n');
        text.append("dataset ").append(profile.dataset()).append(' ').append(dataset).append('\n');
        Manifest.Warmup w = profile.warmup();
        Manifest.Cycles cycles = w.cycles();
        text.append(String.format(java.util.Locale.ROOT, "%d start(s) per variant in randomized rounds (seed %d); per"
                        + " cell a warmup%s until steady (%d–%d s; JIT ≤ %.0f ms/s, drift ≤ %.0f %% over %d s), then %d × %d s"
                        + " windows; load scale %.2f%n", profile.trials(), plan.seed(), cycles == null ? ""
                        : String.format(java.util.Locale.ROOT, " of %d × (%d s load, %d s idle) in a start's first cell,"
                                + " then", cycles.count(), cycles.loadSeconds(), cycles.idleSeconds()), w.minSeconds(), w.maxSeconds(),
                w.maxJitMsPerS(), w.maxDriftPct(), w.stableSeconds(), profile.windows(), profile.windowSeconds(),
                profile.scale()));
        text.append(String.format("%d starts, %d measured windows (%d s of measurement)%n",
                plan.trials().size(), windows(), (long) windows() * profile.windowSeconds()));
        text.append("wall time: ").append(wallTime(Set.of())).append('\n');
        for (RunPlan.Trial trial : plan.trials()) {
            text.append(String.format("  round %d  %-18s %s%n", trial.round() + 1, trial.variant().name(),
                    String.join(", ", trial.cells().stream().map(c -> c.scenario().name() + "/" + c.regime()).toList())));
        }
        return text.toString();
    }
}
