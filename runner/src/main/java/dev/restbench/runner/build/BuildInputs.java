package dev.restbench.runner.build;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * A fingerprint of a build step's inputs: every file under its folders (path, size, modification time), skipping
 * build outputs. A step is stale when the fingerprint differs from the one recorded after its last successful
 * build, so an edit, a deleted file and a checkout of older files all count, which "newer than the artifact" missed.
 */
final class BuildInputs {

    /** Build outputs and tool caches inside source folders: never inputs. */
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of("target", "node_modules", ".git", ".idea");

    private BuildInputs() {
    }

    /**
     * @param root   repository root; paths are hashed relative to it
     * @param inputs files or folders (relative to root)
     * @param output what the step produces, when it lies inside an input folder (then it is not an input)
     * @param extra  further text that defines the step (its command, its runtime)
     */
    static String fingerprint(Path root, List<String> inputs, Path output, List<String> extra) {
        List<String> lines = new ArrayList<>();
        for (String input : inputs) {
            Path start = root.resolve(input);
            if (!Files.exists(start)) {
                lines.add(input + " (missing)");
                continue;
            }
            try {
                Files.walkFileTree(start, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        return !dir.equals(start) && (SKIPPED_DIRECTORIES.contains(dir.getFileName().toString())
                                || dir.equals(output)) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        if (!file.equals(output)) {
                            lines.add(root.relativize(file) + "\0" + attrs.size() + "\0" + attrs.lastModifiedTime().toMillis());
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the build inputs under " + start, e);
            }
        }
        lines.sort(null);
        lines.addAll(extra);
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            for (String line : lines) {
                digest.update(line.getBytes(StandardCharsets.UTF_8));
                digest.update((byte) '\n');
            }
            return HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
