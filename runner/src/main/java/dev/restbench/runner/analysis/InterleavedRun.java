package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.runner.Main;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs copies of variants side by side in ONE run of the runner's own orchestration, so they alternate per
 * repetition (A B, then B A) on the same machine state and drift cancels: A/B builds of two revisions, or the
 * same build with and without injected faults. Copies are declared in a derived manifest (the checkout's
 * benchmarks.json with the variant list replaced) and named {@code <variant>--<label>}, e.g. {@code jersey--base}
 * (manifest names allow only [a-z0-9-]); {@link #select} splits the run back into one record per label.
 */
public final class InterleavedRun {

    public static final String SEPARATOR = "--";

    /** One copy of a manifest variant: its label, the artifact to run (null = the manifest's) and extra env. */
    public record Copy(String variant, String label, Path artifact, Map<String, String> env) {
        public String name() {
            return variant + SEPARATOR + label;
        }
    }

    /** Profile overrides for the derived manifest; null fields keep the manifest's values. */
    public record ProfileOverrides(Integer repetitions, Integer warmupSeconds, Integer windowSeconds,
                                   List<String> regimes, Double capacityP99Ms) {
    }

    private InterleavedRun() {
    }

    /** Writes the derived manifest to target and returns it. */
    public static Path deriveManifest(Path manifest, List<Copy> copies, String profile, ProfileOverrides overrides,
                                      Path target) throws IOException {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(manifest.toFile());
        // The schema is resolved by the runner itself; a relative $schema would point nowhere from target.
        root.remove("$schema");
        // Copies of the resolved variants (an entry that extends another carries everything it inherits), so the
        // derived manifest needs no entry it does not run.
        Manifest resolved = ManifestLoader.load(manifest);
        ArrayNode derived = Json.MAPPER.createArrayNode();
        for (Copy copy : copies) {
            Manifest.Variant source = resolved.variant(copy.variant()).orElseThrow(() ->
                    new IllegalArgumentException("unknown variant '" + copy.variant() + "' in " + manifest));
            // A copy with its own artifact was built elsewhere (an A/B worktree): it has no build step here.
            derived.add(Json.MAPPER.valueToTree(copy.artifact() == null
                    ? source.renamed(copy.name(), source.artifact(), copy.env(), source.build())
                    : source.renamed(copy.name(), copy.artifact().toAbsolutePath().toString(), copy.env(), null)));
        }
        root.set("variants", derived);
        // Profiles name the manifest's own variants; the derived one runs exactly its copies.
        root.path("profiles").forEach(p -> ((ObjectNode) p).remove(List.of("variants", "where")));
        ObjectNode profileNode = (ObjectNode) root.path("profiles").get(profile);
        if (profileNode == null) {
            throw new IllegalArgumentException("unknown profile '" + profile + "' in " + manifest);
        }
        if (overrides.repetitions() != null) {
            profileNode.put("repetitions", overrides.repetitions());
        }
        if (overrides.warmupSeconds() != null) {
            profileNode.put("warmupSeconds", overrides.warmupSeconds());
        }
        if (overrides.windowSeconds() != null) {
            profileNode.put("windowSeconds", overrides.windowSeconds());
        }
        if (overrides.regimes() != null) {
            ArrayNode regimes = profileNode.putArray("regimes");
            overrides.regimes().forEach(regimes::add);
        }
        if (overrides.capacityP99Ms() != null && root.path("errorBudget").isObject()) {
            ((ObjectNode) root.get("errorBudget")).put("capacityP99Ms", overrides.capacityP99Ms());
        }
        Files.createDirectories(target.toAbsolutePath().getParent());
        Json.MAPPER.writeValue(target.toFile(), root);
        return target;
    }

    /**
     * Runs {@code ./bench run} in this JVM with the derived manifest and returns the new results directory.
     *
     * @param extraArgs further run options (e.g. --scenarios)
     */
    public static Path run(Path root, Path manifest, String profile, Path resultsDir, List<String> extraArgs)
            throws IOException {
        Files.createDirectories(resultsDir);
        List<Path> before = listRuns(resultsDir);
        // The caller built every copy (A/B: in its worktree; drill: the checkout's variant) before deriving.
        List<String> args = new ArrayList<>(List.of("run", "--root", root.toString(), "--manifest",
                manifest.toString(), "--profile", profile, "--results", resultsDir.toString(), "--no-history",
                "--no-build"));
        args.addAll(extraArgs);
        int exit = Main.execute(args);
        List<Path> after = listRuns(resultsDir);
        after.removeAll(before);
        if (after.isEmpty()) {
            throw new IllegalStateException("the run wrote no results (exit code " + exit + ")");
        }
        if (exit != 0) {
            System.err.println("note: the run exited " + exit + " (failed cells are reported as inconclusive)");
        }
        return after.get(after.size() - 1);
    }

    private static List<Path> listRuns(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            return new ArrayList<>(entries.filter(p -> Files.isRegularFile(p.resolve("run.json")))
                    .sorted(Comparator.comparing(Path::toString)).toList());
        }
    }

    /**
     * The part of an interleaved run that belongs to one label, with the label stripped from variant names, so
     * {@code jersey--base} and {@code jersey--head} become two comparable records of {@code jersey}.
     *
     * @param commit the commit id this part measured (null keeps the run's)
     */
    public static RunRecord select(RunRecord run, String label, String commit) {
        ObjectNode raw = run.raw().deepCopy();
        String suffix = SEPARATOR + label;
        ArrayNode variants = Json.MAPPER.createArrayNode();
        for (JsonNode variant : raw.path("variants")) {
            String name = variant.path("name").asText();
            if (name.endsWith(suffix)) {
                ObjectNode copy = (ObjectNode) variant.deepCopy();
                copy.put("name", name.substring(0, name.length() - suffix.length()));
                variants.add(copy);
            }
        }
        ArrayNode cells = Json.MAPPER.createArrayNode();
        for (JsonNode cell : raw.path("cells")) {
            String name = cell.path("variant").asText();
            if (name.endsWith(suffix)) {
                ObjectNode copy = (ObjectNode) cell.deepCopy();
                copy.put("variant", name.substring(0, name.length() - suffix.length()));
                cells.add(copy);
            }
        }
        raw.set("variants", variants);
        raw.set("cells", cells);
        raw.put("runId", run.runId() + "-" + label);
        if (commit != null) {
            ((ObjectNode) raw.path("commit")).put("id", commit);
        }
        return RunRecord.of(raw, run.runId() + " (" + label + ")");
    }
}
