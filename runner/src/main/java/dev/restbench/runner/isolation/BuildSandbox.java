package dev.restbench.runner.isolation;

import dev.restbench.runner.io.Trees;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A build as the {@link ServiceUser}: a copy of the tree's files in a directory of that user's, the build tools run
 * there as that user, and only the artifacts come back, by path, into the tree (owned by the runner's user, modes
 * normalised, never set-uid). The copy goes in as a tar stream written by the runner (links stay links) and read by
 * the user; an artifact comes out read by the user ({@code cat}, {@code tar}) and written by the runner. So the
 * build can change nothing of the runner's but what the manifest names as its artifact, and every process it left
 * is killed before that is copied.
 */
public final class BuildSandbox implements AutoCloseable {
    /** Not copied without git: build outputs and tool caches (as the build fingerprint skips them). */
    private static final Set<String> SKIPPED = Set.of("target", "node_modules", ".git", ".idea");

    private final ServiceUser user;
    private final Path root;
    private final Path copy;
    private final Path home;
    private final Path staging;

    private BuildSandbox(ServiceUser user, Path root, Path copy, Path home, Path staging) {
        this.user = user;
        this.root = root;
        this.copy = copy;
        this.home = home;
        this.staging = staging;
    }

    /**
     * Copies the tree into a new directory of the user's: in a git checkout or worktree the files git would commit
     * (tracked and untracked but not ignored), else every file but build outputs; plus {@code extra} (files the
     * runner wrote for the build, such as the Maven reactor pom).
     *
     * @param work the runner's own directory in the tree for staging the artifacts that come back
     */
    public static BuildSandbox open(ServiceUser user, Path root, String work, List<Path> extra) throws IOException {
        Path tree = root.toAbsolutePath().normalize();
        requireNoLinks(tree, work);
        Path staging = tree.resolve(work).resolve("staging");
        Trees.delete(staging);
        Files.createDirectories(staging);
        user.stopAll(); // nothing left from before may touch the copy
        Path copy = user.newDirectory("build");
        Path home = user.session().resolve("build-home"); // shared by the builds of one ./bench: its Maven repository
        user.mkdirs(home);
        List<String> files = new ArrayList<>(files(tree));
        for (Path file : extra) {
            files.add(tree.relativize(file.toAbsolutePath().normalize()).toString());
        }
        Path list = Files.createTempFile("restbench-build-files-", ".list");
        try {
            Files.writeString(list, String.join("\0", files) + "\0");
            pipe(List.of("tar", "-c", "-f", "-", "-C", tree.toString(), "--null", "--no-recursion", "-T", list.toString()),
                    user.helper(List.of("tar", "-x", "-f", "-", "-C", copy.toString())), "copy " + tree + " for " + user.name());
        } finally {
            Files.deleteIfExists(list);
        }
        return new BuildSandbox(user, tree, copy, home, staging);
    }

    /** The copy's root as the user sees it: where a build runs and its relative paths point. */
    public Path dir() {
        return copy;
    }

    /**
     * Runs a build tool in the copy as the user, each line of its output (and error) to {@code lines}; then kills
     * whatever it left running.
     *
     * @return its exit code
     */
    public int run(List<String> argv, Map<String, String> env, Consumer<String> lines) throws IOException, InterruptedException {
        Map<String, String> vars = new java.util.LinkedHashMap<>(env);
        // Maven's ~/.m2 (settings, repository) is user.home, which Java takes from the passwd entry, not HOME.
        vars.merge("MAVEN_OPTS", "-Duser.home=" + home, (given, ours) -> given + " " + ours);
        Process process = new ProcessBuilder(user.command(argv, vars, home, copy)).redirectErrorStream(true).start();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.accept(line);
            }
            return process.waitFor();
        } finally {
            user.stopAll();
        }
    }

    /**
     * Brings an artifact (a file or a directory, relative to the tree) from the copy into the tree, replacing what
     * was there. Refused: a path that leaves the tree or passes through a link in it, an artifact that is a link or
     * holds anything but files, directories and links.
     *
     * @throws IOException with the reason
     */
    public void copyBack(String relative) throws IOException {
        Path target = requireNoLinks(root, relative);
        Path source = copy.resolve(relative);
        String kind = user.kind(source);
        Path staged = staging.resolve(relative);
        Trees.delete(staging);
        Files.createDirectories(staged.getParent());
        switch (kind) {
            case "regular file", "regular empty file" -> user.copyOut(source, staged);
            case "directory" -> {
                Path relativePath = Path.of(relative).normalize();
                pipe(user.helper(List.of("tar", "-c", "-f", "-", "-C", copy.toString(), "--", relativePath.toString())),
                        List.of("tar", "-x", "-f", "-", "-C", staging.toString(), "--no-same-owner",
                                "--no-same-permissions"), "copy " + relative + " back from " + user.name());
            }
            default -> throw new IOException(relative + " in the build's copy is a " + kind
                    + ", not a file or a directory");
        }
        Trees.readableByAll(staged); // whatever modes the build gave it: none set-uid, none writable by others
        Trees.delete(target);
        Files.createDirectories(target.getParent());
        Files.move(staged, target);
    }

    /** Kills what is left and removes the copy (the build home stays for the next build of this ./bench). */
    @Override
    public void close() throws IOException {
        user.stopAll();
        user.remove(copy);
        Trees.delete(staging);
    }

    /**
     * {@code root/relative}, checked to stay inside root with no symbolic link on the way (the last component
     * included), so that a committed link cannot point the runner's reads or writes elsewhere.
     *
     * @throws IOException naming the link or the escape
     */
    public static Path requireNoLinks(Path root, String relative) throws IOException {
        Path rel = Path.of(relative).normalize();
        if (rel.isAbsolute() || rel.toString().isEmpty() || rel.startsWith("..")) {
            throw new IOException("'" + relative + "' is not a path inside " + root);
        }
        Path p = root;
        for (Path part : rel) {
            p = p.resolve(part);
            if (Files.isSymbolicLink(p)) {
                throw new IOException(root.relativize(p) + " is a symbolic link (in " + root + ")");
            }
        }
        return p;
    }

    /** The files to copy, relative to the tree. */
    private static List<String> files(Path tree) throws IOException {
        if (Files.exists(tree.resolve(".git"), LinkOption.NOFOLLOW_LINKS)) {
            Process git = new ProcessBuilder("git", "-C", tree.toString(), "ls-files", "-z", "--cached", "--others",
                    "--exclude-standard").redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String listed = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            try {
                if (git.waitFor() == 0) {
                    List<String> files = new ArrayList<>();
                    for (String file : listed.split("\0")) {
                        // A tracked file deleted in the working tree is not there to copy.
                        if (!file.isEmpty() && Files.exists(tree.resolve(file), LinkOption.NOFOLLOW_LINKS)) {
                            files.add(file);
                        }
                    }
                    return files;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted");
            }
        }
        List<String> files = new ArrayList<>();
        Files.walkFileTree(tree, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(tree) && SKIPPED.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                files.add(tree.relativize(file).toString());
                return FileVisitResult.CONTINUE;
            }
        });
        return files;
    }

    /** {@code from | to}, both checked: their errors in the exception. */
    private static void pipe(List<String> from, List<String> to, String what) throws IOException {
        Path errorsFrom = Files.createTempFile("restbench-pipe-", ".err");
        Path errorsTo = Files.createTempFile("restbench-pipe-", ".err");
        try {
            List<Process> processes = ProcessBuilder.startPipeline(List.of(
                    new ProcessBuilder(from).redirectError(errorsFrom.toFile()),
                    new ProcessBuilder(to).redirectError(errorsTo.toFile())
                            .redirectOutput(ProcessBuilder.Redirect.DISCARD)));
            processes.get(0).getOutputStream().close();
            int fromExit = processes.get(0).waitFor();
            int toExit = processes.get(1).waitFor();
            if (fromExit != 0 || toExit != 0) {
                throw new IOException(what + " failed: " + (Files.readString(errorsFrom) + " "
                        + Files.readString(errorsTo)).strip());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(what + ": interrupted");
        } finally {
            Files.deleteIfExists(errorsFrom);
            Files.deleteIfExists(errorsTo);
        }
    }
}
