package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the variant jars are: the paths in {@code benchmarks.json} (the runner's manifest, {@code variants[].artifact})
 * when it names the variant, else {@code services/<variant>/target/<variant>.jar}, both relative to the repository
 * root (the directory holding {@code mvnw}).
 */
final class RepositoryLayout {

    private RepositoryLayout() {
    }

    static Path root() {
        Path dir = Path.of("").toAbsolutePath();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("mvnw"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no repository root (a directory with mvnw) above " + dir);
    }

    static Path jar(String variant) {
        Path root = root();
        Path jar = root.resolve(manifestArtifact(root, variant));
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException("no jar for variant " + variant + " at " + jar
                    + ": run ./mvnw package first");
        }
        return jar;
    }

    private static String manifestArtifact(Path root, String variant) {
        String fallback = "services/" + variant + "/target/" + variant + ".jar";
        Path manifest = root.resolve("benchmarks.json");
        if (!Files.isRegularFile(manifest)) {
            return fallback;
        }
        try {
            JsonNode variants = new ObjectMapper().readTree(manifest.toFile()).path("variants");
            for (JsonNode entry : variants) {
                if (variant.equals(entry.path("name").asText()) && entry.path("artifact").isTextual()) {
                    return entry.path("artifact").asText();
                }
            }
            return fallback;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + manifest, e);
        }
    }
}
