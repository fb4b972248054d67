package dev.restbench.runner.ab;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The few git and Maven invocations the A/B mode needs, with their output on failure. */
final class Git {

    private Git() {
    }

    /** The full commit id of a ref, or a clear error when it does not name a commit. */
    static String resolve(Path repo, String ref) throws IOException, InterruptedException {
        Result result = exec(repo, List.of("git", "rev-parse", "--verify", "--quiet", ref + "^{commit}"));
        if (result.exit() != 0 || result.output().isBlank()) {
            throw new IllegalArgumentException("'" + ref + "' is not a commit in " + repo);
        }
        return result.output().trim();
    }

    static String mergeBase(Path repo, String a, String b) throws IOException, InterruptedException {
        Result result = exec(repo, List.of("git", "merge-base", a, b));
        if (result.exit() != 0) {
            throw new IllegalArgumentException("no merge base of " + a + " and " + b + ": " + result.output().trim());
        }
        return result.output().trim();
    }

    /** A detached worktree of commit at dir; an existing worktree there at the same commit is reused. */
    static void worktree(Path repo, Path dir, String commit) throws IOException, InterruptedException {
        if (dir.resolve(".git").toFile().exists()) {
            Result head = exec(dir, List.of("git", "rev-parse", "HEAD"));
            if (head.exit() == 0 && head.output().trim().equals(commit)) {
                return;
            }
            remove(repo, dir);
        }
        check(exec(repo, List.of("git", "worktree", "add", "--detach", "--force", dir.toString(), commit)),
                "git worktree add " + dir);
    }

    static void remove(Path repo, Path dir) throws IOException, InterruptedException {
        exec(repo, List.of("git", "worktree", "remove", "--force", dir.toString()));
        exec(repo, List.of("git", "worktree", "prune"));
    }

    /**
     * {@code ./mvnw -B -q package -DskipTests} limited to the given modules and what they need: how a revision from
     * before build steps in the manifest is built (RevisionBuild).
     */
    static void build(Path worktree, List<String> modules) throws IOException, InterruptedException {
        List<String> command = buildCommand(modules);
        System.out.println("building " + worktree + ": " + String.join(" ", command));
        check(exec(worktree, command), "build in " + worktree);
    }

    /** The reactor build of the given modules (all without any), run from the worktree's root. */
    static List<String> buildCommand(List<String> modules) {
        List<String> command = new ArrayList<>(List.of("./mvnw", "-B", "-q", "package", "-DskipTests"));
        if (!modules.isEmpty()) {
            command.addAll(List.of("-pl", String.join(",", modules), "-am"));
        }
        return command;
    }

    record Result(int exit, String output) {
    }

    static Result exec(Path dir, List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(process.waitFor(), output);
    }

    private static void check(Result result, String what) {
        if (result.exit() != 0) {
            String output = result.output();
            String tail = output.length() > 4000 ? output.substring(output.length() - 4000) : output;
            throw new IllegalStateException(what + " failed (exit " + result.exit() + "):\n" + tail);
        }
    }
}
