package dev.restbench.runner.run;

import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.UsageException;
import dev.restbench.manifest.Manifest;

import java.util.ArrayList;
import java.util.List;

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
        for (RunPlan.Trial trial : plan.trials()) {
            text.append(String.format("  round %d  %-18s %s%n", trial.round() + 1, trial.variant().name(),
                    String.join(", ", trial.cells().stream().map(c -> c.scenario().name() + "/" + c.regime()).toList())));
        }
        return text.toString();
    }
}
