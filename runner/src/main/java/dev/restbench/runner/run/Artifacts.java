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
 *
 * <p>For a service user ({@code BENCH_SERVICE_USER}) the copies are readable and not writable by it (the services
 * read them, a service cannot change what another start runs), and links are copied as links: the runner never
 * reads through a link in an artifact on the service's behalf (one to the runner's own files would hand them over).
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
        return snapshot(root, variants, notStarted, out, false);
    }

    /** @param forServiceUser copies for a service user: readable by all, links as links, an artifact link refused */
    static Artifacts snapshot(Path root, List<Manifest.Variant> variants, Collection<String> notStarted, PrintStream out,
                              boolean forServiceUser) throws IOException {
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
            if (forServiceUser) {
                if (Files.isSymbolicLink(artifact)) {
                    throw new IOException(artifact + " (the artifact of " + variant.name() + ") is a symbolic link");
                }
                Trees.copyKeepingLinks(artifact, copy);
            } else if (Files.isDirectory(artifact)) {
                Trees.copy(artifact, copy);
            } else {
                Files.copy(artifact, copy);
            }
            copies.put(variant.name(), copy);
        }
        if (forServiceUser) {
            Trees.readableByAll(dir);
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
