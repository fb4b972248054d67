package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The A/B mode's build of one revision (a worktree), as that revision says: its own benchmarks.json names each
 * variant's build step and artifact, and {@link VariantBuilder} builds them there. A revision from before build steps
 * were in the manifest is built the way it was then: the whole Maven reactor, artifacts at the paths its manifest
 * names. Which format a manifest has is told by its top-level {@code shared} (the shared modules the build steps
 * need), not by whether it loads: a broken current manifest is an error, not an old one.
 */
final class RevisionBuild {

    private RevisionBuild() {
    }

    /**
     * Each variant's artifact in the worktree (absolute), built first unless {@code build} is false
     * ({@code --skip-build}: the artifacts are already there).
     */
    static Map<String, Path> artifacts(Path tree, List<String> variants, Runtimes runtimes, boolean build)
            throws IOException, InterruptedException {
        Path manifestFile = tree.resolve("benchmarks.json");
        if (!Json.MAPPER.readTree(Files.readString(manifestFile)).has("shared")) {
            return legacyBuild(tree, manifestFile, variants, build); // no build steps in that manifest yet
        }
        // Loaded strictly (without the runner's metric check: the revision's runner is not the one running).
        Manifest manifest = ManifestLoader.load(manifestFile);
        List<Manifest.Variant> selected = new ArrayList<>();
        for (String name : variants) {
            selected.add(manifest.variant(name).orElseThrow(() -> new IllegalArgumentException("variant '" + name
                    + "' is not in " + manifestFile + " (it did not exist at that revision)")));
        }
        if (build) {
            System.out.println("building " + tree + " as its benchmarks.json says");
            new VariantBuilder(tree, manifest, runtimes, System.out).build(selected, false, false);
        }
        Map<String, Path> artifacts = new LinkedHashMap<>();
        selected.forEach(v -> artifacts.put(v.name(), tree.resolve(v.artifact())));
        return artifacts;
    }

    /** Artifacts where the old manifest says; the variant modules by their /target/ paths (the old root reactor). */
    private static Map<String, Path> legacyBuild(Path tree, Path manifestFile, List<String> variants, boolean build)
            throws IOException, InterruptedException {
        JsonNode all = Json.MAPPER.readTree(Files.readString(manifestFile)).path("variants");
        Map<String, Path> artifacts = new LinkedHashMap<>();
        List<String> modules = new ArrayList<>();
        for (String name : variants) {
            String artifact = null;
            for (JsonNode variant : all) {
                if (variant.path("name").asText().equals(name)) {
                    artifact = variant.path("artifact").asText();
                }
            }
            if (artifact == null) {
                throw new IllegalArgumentException("variant '" + name + "' is not in " + manifestFile);
            }
            artifacts.put(name, tree.resolve(artifact));
            int target = artifact.indexOf("/target/");
            if (target > 0 && !modules.contains(artifact.substring(0, target))) {
                modules.add(artifact.substring(0, target));
            }
        }
        if (build) {
            Git.build(tree, modules);
        }
        return artifacts;
    }
}
