package dev.restbench.contract;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which variants the suites test and how they start: benchmarks.json, read with the runner's own loader. Every
 * variant of dialect plain goes through the plain suite, every hal one through the HAL suite, all of them through
 * the hostile requests, the SQL statement counts and the shared endpoints, so a new variant is tested by adding
 * its manifest entry, and none can be left out by a list in a test class.
 *
 * <p>System properties: {@code restbench.root} (the repository root; default: the directory above with mvnw),
 * {@code restbench.manifest} (default: {@code <root>/benchmarks.json}), {@code restbench.variants} (a comma list:
 * only these, e.g. to test one variant while working on it).
 */
final class ContractManifest {

    private static final Path ROOT = findRoot();
    private static final Manifest MANIFEST = ManifestLoader.load(Path.of(System.getProperty("restbench.manifest",
            ROOT.resolve("benchmarks.json").toString())));

    private ContractManifest() {
    }

    static Path root() {
        return ROOT;
    }

    static Manifest manifest() {
        return MANIFEST;
    }

    static Manifest.Variant variant(String name) {
        return MANIFEST.variant(name).orElseThrow(() -> new IllegalArgumentException("no variant " + name
                + " in the manifest"));
    }

    /** The selected variants' names, in manifest order. */
    static List<String> all() {
        return selected().stream().map(Manifest.Variant::name).toList();
    }

    static List<String> plain() {
        return ofDialect("plain");
    }

    static List<String> hal() {
        return ofDialect("hal");
    }

    static boolean isHal(String variant) {
        return variant(variant).dialect().equals("hal");
    }

    private static List<String> ofDialect(String dialect) {
        return selected().stream().filter(v -> v.dialect().equals(dialect)).map(Manifest.Variant::name).toList();
    }

    private static List<Manifest.Variant> selected() {
        String only = System.getProperty("restbench.variants", "").trim();
        if (only.isEmpty()) {
            return MANIFEST.variants();
        }
        Set<String> names = Arrays.stream(only.split(",")).map(String::trim).collect(Collectors.toSet());
        names.forEach(ContractManifest::variant); // an unknown name is an error, not an empty suite
        return MANIFEST.variants().stream().filter(v -> names.contains(v.name())).toList();
    }

    private static Path findRoot() {
        String property = System.getProperty("restbench.root");
        if (property != null) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("mvnw")) && Files.isRegularFile(candidate.resolve("benchmarks.json"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no repository root (a directory with mvnw and benchmarks.json) above " + dir);
    }
}
