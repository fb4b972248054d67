package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which of a profile's variants an A/B has to measure: those whose build or start differs between base and head. A
 * variant differs when a file under its build inputs changed ({@link VariantBuilder#inputPaths}: its folder, its
 * build's {@code inputs}, the shared Maven modules, the root pom) or when its resolved manifest entry did (runtime,
 * command, env, JVM options, build step, artifact; not its label, description or classification). A change to the
 * harness itself ({@link #HARNESS}, or benchmarks.json outside its variant entries and the profiles' variant lists:
 * scenarios, metrics, method, defaults) is a method change: every variant of the profile is measured, and the comment
 * says why. Anything else (docs, the site, workflows, contract tests) measures nothing.
 *
 * <p>An A/B spends its budget on rounds; a pull request that changes one variant gets them all for that variant
 * (docs/results/2026-11-25-verdict-rules.md: 7 rounds of one variant in an hour instead of 2 of three).
 */
final class ChangedVariants {

    /**
     * The harness: what measures rather than what is measured (repository-relative files and folders). The runner,
     * the Gatling simulations, the modules the runner reads the manifest and loads the dataset with, the manifest's
     * schema, the launcher and the Maven wrapper that builds everything.
     */
    static final List<String> HARNESS = List.of("runner", "gatling", "shared/manifest", "shared/dataset", "bench",
            "benchmarks.schema.json", "mvnw");

    /** Manifest fields of a variant that do not change what is built or started. */
    private static final List<String> DESCRIPTIVE = List.of("label", "description", "classification");

    /**
     * @param measure     the profile's variants to measure, in profile order
     * @param skipped     the profile's variants left out, each with why
     * @param method      why the whole profile is measured (a harness change), or null
     */
    record Scope(List<String> measure, Map<String, String> skipped, String method, Map<String, String> why) {

        /** One line for the comment, in words a recorded ab.json may carry ({@code Design}'s prose pattern). */
        String describe() {
            String text;
            if (method != null) {
                text = "every variant of the profile, since this head changes the harness (" + method + ")";
            } else if (measure.isEmpty()) {
                text = "nothing, since this head changes no variant of the profile and not the harness";
            } else {
                text = String.join(", ", measure) + ", whose build or start changed"
                        + (skipped.isEmpty() ? "" : ", and not " + String.join(", ", skipped.keySet()));
            }
            return text.replaceAll("[^A-Za-z0-9 ,.'()-]", " ");
        }
    }

    private ChangedVariants() {
    }

    /**
     * @param repo     the repository holding both commits
     * @param profile  the profile's variants (the checkout's selection), in order
     */
    static Scope of(Path repo, String base, String head, List<String> profile) throws IOException, InterruptedException {
        List<String> changed = changedFiles(repo, base, head);
        Map<String, String> why = new LinkedHashMap<>();
        Optional<String> harness = changed.stream().filter(f -> under(f, HARNESS)).findFirst();
        Optional<Manifest> baseManifest = manifestAt(repo, base);
        Optional<Manifest> headManifest = manifestAt(repo, head);
        String method = harness.orElse(null);
        if (method == null && changed.contains("benchmarks.json") && !sameMethod(repo, base, head)) {
            method = "benchmarks.json outside its variants";
        }
        if (method == null && (baseManifest.isEmpty() || headManifest.isEmpty())) {
            method = "a benchmarks.json this runner cannot read";
        }
        if (method != null) {
            return new Scope(profile, Map.of(), method, Map.of());
        }
        List<String> measure = new ArrayList<>();
        Map<String, String> skipped = new LinkedHashMap<>();
        for (String name : profile) {
            Optional<Manifest.Variant> b = baseManifest.get().variant(name);
            Optional<Manifest.Variant> h = headManifest.get().variant(name);
            String reason = null;
            if (h.isEmpty()) {
                skipped.put(name, "not in head's benchmarks.json");
                continue;
            }
            if (b.isEmpty()) {
                reason = "new in head";
            } else if (!entry(b.get()).equals(entry(h.get()))) {
                reason = "its entry in benchmarks.json changed";
            } else {
                List<String> inputs = new ArrayList<>(
                        VariantBuilder.inputPaths(headManifest.get(), h.get().folder(), h.get().build()));
                inputs.addAll(VariantBuilder.inputPaths(baseManifest.get(), b.get().folder(), b.get().build()));
                reason = changed.stream().filter(f -> under(f, inputs)).findFirst().orElse(null);
            }
            if (reason == null) {
                skipped.put(name, "no build input changed");
            } else {
                measure.add(name);
                why.put(name, reason);
            }
        }
        return new Scope(measure, skipped, null, why);
    }

    /** A path equal to one of the prefixes or inside one of them. */
    static boolean under(String file, List<String> prefixes) {
        for (String prefix : prefixes) {
            String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
            if (file.equals(p) || file.startsWith(p + "/")) {
                return true;
            }
        }
        return false;
    }

    /** A variant entry as resolved (inheritance applied), without the fields that only describe it. */
    private static JsonNode entry(Manifest.Variant variant) {
        ObjectNode node = Json.MAPPER.valueToTree(variant);
        DESCRIPTIVE.forEach(node::remove);
        return node;
    }

    /** benchmarks.json without its variants and the profiles' variant lists: the method, scenarios and metrics. */
    private static boolean sameMethod(Path repo, String base, String head) throws IOException, InterruptedException {
        return method(show(repo, base, "benchmarks.json")).equals(method(show(repo, head, "benchmarks.json")));
    }

    private static JsonNode method(Optional<String> text) throws IOException {
        if (text.isEmpty()) {
            return Json.MAPPER.nullNode();
        }
        JsonNode node = Json.MAPPER.readTree(text.get());
        if (node instanceof ObjectNode object) {
            object.remove(List.of("$schema", "variants"));
            object.path("profiles").forEach(p -> {
                if (p instanceof ObjectNode profile) {
                    profile.remove(List.of("variants", "where"));
                }
            });
        }
        return node;
    }

    private static Optional<Manifest> manifestAt(Path repo, String commit) throws IOException, InterruptedException {
        Optional<String> text = show(repo, commit, "benchmarks.json");
        if (text.isEmpty()) {
            return Optional.empty();
        }
        Path file = Files.createTempFile("restbench-manifest-", ".json");
        try {
            Files.writeString(file, text.get());
            return Optional.of(ManifestLoader.load(file));
        } catch (RuntimeException e) {
            return Optional.empty(); // another layout or a broken manifest: the caller measures the whole profile
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static Optional<String> show(Path repo, String commit, String path) throws IOException, InterruptedException {
        Git.Result result = Git.exec(repo, List.of("git", "show", commit + ":" + path));
        return result.exit() == 0 ? Optional.of(result.output()) : Optional.empty();
    }

    /** The files that differ between the two commits (renames as a deletion and an addition). */
    static List<String> changedFiles(Path repo, String base, String head) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("git", "diff", "--name-only", "--no-renames", "-z", base, head)
                .directory(repo.toFile()).redirectErrorStream(false).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String error = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IllegalArgumentException("git diff " + base + " " + head + " failed: " + error.trim());
        }
        List<String> files = new ArrayList<>();
        for (String name : output.split("\0")) {
            if (!name.isEmpty()) {
                files.add(name);
            }
        }
        return files;
    }
}
