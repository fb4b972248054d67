package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A derived manifest for an interleaved run: the checkout's benchmarks.json (its harness: scenarios, profile, method)
 * with the variant list replaced by copies named {@code <variant>--<label>}, each with its own artifact and extra
 * environment, so every round starts each copy once in random order.
 */
final class Copies {

    /** One copy of a manifest variant: its label, the artifact to run (null = the manifest's) and extra env. */
    record Copy(String variant, String label, Path artifact, Map<String, String> env) {
        String name() {
            return variant + InterleavedRun.SEPARATOR + label;
        }
    }

    private Copies() {
    }

    /**
     * Writes the derived manifest to target and returns it.
     *
     * @param rounds        the profile's trials: the most rounds the run may take (a listener may stop it sooner)
     * @param scenarios     the scenarios to run (null keeps the profile's)
     * @param regimes       the regimes (null keeps the profile's)
     * @param capacityP99Ms a different capacity latency bound (null keeps the manifest's)
     */
    static Path deriveManifest(Path manifest, List<Copy> copies, String profile, int rounds, List<String> scenarios,
                               List<String> regimes, Double capacityP99Ms, Path target) throws IOException {
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
        profileNode.put("trials", rounds);
        if (scenarios != null) {
            ArrayNode list = profileNode.putArray("scenarios");
            scenarios.forEach(list::add);
        }
        if (regimes != null) {
            ArrayNode list = profileNode.putArray("regimes");
            regimes.forEach(list::add);
        }
        if (capacityP99Ms != null && root.path("errorBudget").isObject()) {
            ((ObjectNode) root.get("errorBudget")).put("capacityP99Ms", capacityP99Ms);
        }
        Files.createDirectories(target.toAbsolutePath().getParent());
        Json.MAPPER.writeValue(target.toFile(), root);
        return target;
    }
}
