package dev.restbench.runner.io;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/** Copying and deleting directory trees (the JDK has neither). */
public final class Trees {

    private Trees() {
    }

    /** Copies a file or a directory tree onto {@code target}, replacing files that exist; absent source: no-op. */
    public static void copy(Path source, Path target) throws IOException {
        if (Files.isRegularFile(source)) {
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            return;
        }
        if (!Files.isDirectory(source)) {
            return;
        }
        copyTree(source, target, false);
    }

    /**
     * Copies a file or a directory tree onto {@code target} with its links as links (never followed, so nothing
     * outside the tree is read) and its files' times; anything but files, directories and links is refused.
     */
    public static void copyKeepingLinks(Path source, Path target) throws IOException {
        copyTree(source, target, true);
    }

    private static void copyTree(Path source, Path target, boolean keepLinks) throws IOException {
        Files.walkFileTree(source, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(target.resolve(source.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Path to = target.resolve(source.relativize(file).toString());
                if (keepLinks) {
                    requirePlain(file, attrs);
                    Files.copy(file, to, LinkOption.NOFOLLOW_LINKS, StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.COPY_ATTRIBUTES);
                } else {
                    Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /**
     * Gives a file or tree the modes of files anyone may read and only their owner write: directories 0755, files
     * 0644 (0755 when their owner may execute them), never set-uid; links are left alone, anything but files,
     * directories and links is refused.
     */
    public static void readableByAll(Path tree) throws IOException {
        Set<PosixFilePermission> executable = PosixFilePermissions.fromString("rwxr-xr-x");
        Set<PosixFilePermission> plain = PosixFilePermissions.fromString("rw-r--r--");
        Files.walkFileTree(tree, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.setPosixFilePermissions(dir, executable);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                requirePlain(file, attrs);
                if (attrs.isRegularFile()) {
                    Files.setPosixFilePermissions(file, Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)
                            .contains(PosixFilePermission.OWNER_EXECUTE) ? executable : plain);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void requirePlain(Path file, BasicFileAttributes attrs) throws IOException {
        if (!attrs.isRegularFile() && !attrs.isSymbolicLink()) {
            throw new IOException(file + " is neither a file, a directory nor a link");
        }
    }

    /** Deletes a file or a directory tree; absent: no-op. */
    public static void delete(Path path) throws IOException {
        if (!Files.exists(path)) {
            return;
        }
        Files.walkFileTree(path, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
