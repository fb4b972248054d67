package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.isolation.BuildSandbox;
import dev.restbench.runner.isolation.ServiceUser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The A/B mode's build of one revision (a worktree), as that revision says: its own benchmarks.json names each
 * variant's build step and artifact, and {@link VariantBuilder} builds them there. A revision from before build steps
 * were in the manifest is built the way it was then: the whole Maven reactor, artifacts at the paths its manifest
 * names. Which format a manifest has is told by its top-level {@code shared} (the shared modules the build steps
 * need), not by whether it loads: a broken current manifest is an error, not an old one.
 *
 * <p>With a {@link ServiceUser}, both kinds build as that user, and each artifact must lie inside the worktree with
 * no symbolic link on its path: the revision's manifest and files are the pull request's, and the runner copies the
 * artifact for the service user to read.
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
        for (Manifest.Variant v : selected) {
            artifacts.put(v.name(), confined(tree, v.artifact()));
        }
        return artifacts;
    }

    /** The artifact's path in the worktree; with a service user, checked to stay inside it through no link. */
    private static Path confined(Path tree, String artifact) {
        if (ServiceUser.configured().isEmpty()) {
            return tree.resolve(artifact);
        }
        try {
            return BuildSandbox.requireNoLinks(tree.toAbsolutePath().normalize(), artifact);
        } catch (IOException e) {
            throw new VariantBuilder.BuildFailure("artifact " + artifact + " of " + tree + ": " + e.getMessage());
        }
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
            artifacts.put(name, confined(tree, artifact));
            int target = artifact.indexOf("/target/");
            if (target > 0 && !modules.contains(artifact.substring(0, target))) {
                modules.add(artifact.substring(0, target));
            }
        }
        if (build) {
            Optional<ServiceUser> user = ServiceUser.configured();
            if (user.isPresent()) {
                legacyBuildAs(user.get(), tree, modules, artifacts);
            } else {
                Git.build(tree, modules);
            }
        }
        return artifacts;
    }

    /** {@link Git#build}'s reactor build in a copy of the worktree as the service user; the artifacts come back. */
    private static void legacyBuildAs(ServiceUser user, Path tree, List<String> modules, Map<String, Path> artifacts)
            throws IOException, InterruptedException {
        Path root = tree.toAbsolutePath().normalize();
        List<String> command = Git.buildCommand(modules);
        System.out.println("building " + tree + " as " + user.describe() + ": " + String.join(" ", command));
        try (BuildSandbox sandbox = BuildSandbox.open(user, root, VariantBuilder.WORK, List.of())) {
            StringBuilder output = new StringBuilder();
            int exit = sandbox.run(command, Map.of(), line -> output.append(line).append('\n'));
            if (exit != 0) {
                String tail = output.length() > 4000 ? output.substring(output.length() - 4000) : output.toString();
                throw new IllegalStateException("build in " + tree + " failed (exit " + exit + "):\n" + tail);
            }
            for (Path artifact : artifacts.values()) {
                sandbox.copyBack(root.relativize(artifact).toString());
            }
        }
    }
}
