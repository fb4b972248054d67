package dev.restbench.runner.build;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What can be checked about selected variants before anything runs: their runtime is on this machine, and their
 * artifact exists or a build step makes it. A run checks this before it writes anything; the dry run prints it.
 */
public final class VariantChecks {

    /**
     * @param lines           one per variant, for the dry run
     * @param problems        one line each, empty when all is well
     * @param missingRuntimes with {@code recordMissingRuntimes}: variant name → why its runtime is not on this machine
     *                        ({@link Runtimes.NotFound}'s message), in variant order; such a variant is then no problem
     *                        (neither built nor started, its cells are recorded as not measured), nor is its artifact
     */
    public record Report(List<String> lines, List<String> problems, Map<String, String> missingRuntimes) {
    }

    private VariantChecks() {
    }

    /**
     * @param builder               null when the run builds nothing (--no-build)
     * @param recordMissingRuntimes a runtime not on this machine goes to {@link Report#missingRuntimes} instead of
     *                              the problems (run --missing-runtimes record)
     */
    public static Report check(Path root, Manifest manifest, List<Manifest.Variant> variants, Runtimes runtimes,
                               VariantBuilder builder, boolean recordMissingRuntimes) {
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> missingRuntimes = new LinkedHashMap<>();
        for (Manifest.Variant variant : variants) {
            String runtime;
            try {
                Runtimes.Found found = runtimes.find(variant.runtime());
                runtime = variant.runtime() + " " + found.describe();
            } catch (Runtimes.NotFound e) {
                if (recordMissingRuntimes) {
                    missingRuntimes.put(variant.name(), e.getMessage());
                    lines.add(line(variant, variant.runtime() + " NOT FOUND (recorded as not measured)", "not built or started"));
                    continue;
                }
                runtime = variant.runtime() + " NOT FOUND";
                problems.add(variant.name() + ": " + e.getMessage());
            }
            String artifact;
            boolean exists = Files.exists(root.resolve(variant.artifact()));
            if (variant.build() == null) {
                artifact = exists ? "present, no build step" : "MISSING, no build step";
                if (!exists) {
                    problems.add(variant.name() + ": its artifact " + variant.artifact() + " does not exist and it has"
                            + " no build step");
                }
            } else {
                VariantBuilder.Step step = VariantBuilder.steps(List.of(variant), manifest.variants()).get(0);
                Optional<String> stale = builder == null ? Optional.empty() : builder.staleness(step);
                if (exists && stale.isEmpty()) {
                    artifact = "present";
                } else if (builder == null) {
                    artifact = exists ? "present (not rebuilt: --no-build)" : "MISSING (--no-build)";
                    if (!exists) {
                        problems.add(variant.name() + ": its artifact " + variant.artifact() + " does not exist"
                                + " (build it with ./bench build --variants " + variant.name() + ", or drop --no-build)");
                    }
                } else {
                    artifact = "to be built: " + stale.get() + " (build: " + variant.build().tool() + ")";
                }
            }
            lines.add(line(variant, runtime, artifact));
        }
        return new Report(lines, problems, missingRuntimes);
    }

    private static String line(Manifest.Variant variant, String runtime, String artifact) {
        return String.format("  %-20s %s, %s: %s", variant.name(), runtime, variant.artifact(), artifact);
    }
}
