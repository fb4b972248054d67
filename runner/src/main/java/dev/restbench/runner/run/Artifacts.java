package dev.restbench.runner.run;

import dev.restbench.runner.io.Trees;
import dev.restbench.manifest.Manifest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Private copies of the variants' artifacts for one run: every trial then runs the same build, and a rebuild in the
 * working tree during the run (a fat jar read lazily) cannot break or change a variant midway. Deleted on close, and
 * on Ctrl-C.
 */
final class Artifacts implements AutoCloseable {
    private final Path dir;
    private final AutoCloseable cleanup;
    private final Map<String, Path> copies;

    private Artifacts(Path dir, AutoCloseable cleanup, Map<String, Path> copies) {
        this.dir = dir;
        this.cleanup = cleanup;
        this.copies = copies;
    }

    /**
     * @param notStarted variants the run does not start (nothing to copy): those at a URL, those without their runtime
     */
    static Artifacts snapshot(Path root, List<Manifest.Variant> variants, Collection<String> notStarted, PrintStream out)
            throws IOException {
        Path dir = Files.createTempDirectory("restbench-artifacts-");
        AutoCloseable cleanup = () -> Trees.delete(dir);
        ChildProcesses.register(cleanup);
        Map<String, Path> copies = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (Manifest.Variant variant : variants) {
            if (notStarted.contains(variant.name())) {
                continue;
            }
            Path artifact = root.resolve(variant.artifact());
            if (!Files.exists(artifact)) {
                // Not fatal: a missing artifact is that variant's failed cells.
                missing.add(variant.artifact());
                continue;
            }
            Path copy = dir.resolve(variant.name()).resolve(artifact.getFileName());
            Files.createDirectories(copy.getParent());
            if (Files.isDirectory(artifact)) {
                Trees.copy(artifact, copy);
            } else {
                Files.copy(artifact, copy);
            }
            copies.put(variant.name(), copy);
        }
        if (!missing.isEmpty()) {
            out.println("warning: missing " + String.join(", ", missing) + " (./bench build builds them)");
        }
        if (!Files.isRegularFile(GatlingSession.classpathFile(root))) {
            out.println("warning: missing " + root.relativize(GatlingSession.classpathFile(root))
                    + " (./mvnw -B -q package -DskipTests builds it): every cell will fail");
        }
        return new Artifacts(dir, cleanup, copies);
    }

    /** Variant name → its private copy. */
    Map<String, Path> copies() {
        return copies;
    }

    @Override
    public void close() throws IOException {
        ChildProcesses.unregister(cleanup);
        Trees.delete(dir);
    }
}
