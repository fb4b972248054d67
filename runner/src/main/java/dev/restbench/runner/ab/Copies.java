package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
        ArrayNode variants = (ArrayNode) root.get("variants");
        ArrayNode derived = Json.MAPPER.createArrayNode();
        for (Copy copy : copies) {
            ObjectNode source = null;
            for (JsonNode variant : variants) {
                if (variant.path("name").asText().equals(copy.variant())) {
                    source = (ObjectNode) variant;
                }
            }
            if (source == null) {
                throw new IllegalArgumentException("unknown variant '" + copy.variant() + "' in " + manifest);
            }
            ObjectNode out = source.deepCopy();
            out.put("name", copy.name());
            if (copy.artifact() != null) {
                out.put("artifact", copy.artifact().toAbsolutePath().toString());
            }
            if (!copy.env().isEmpty()) {
                ObjectNode env = out.has("env") ? (ObjectNode) out.get("env") : out.putObject("env");
                copy.env().forEach(env::put);
            }
            derived.add(out);
        }
        root.set("variants", derived);
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
