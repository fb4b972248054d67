package dev.restbench.runner.run;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The commit being measured, from git; "unknown" fields outside a git checkout. */
record GitInfo(String id, String message, String author, String timestamp, boolean dirty) {

    static GitInfo of(Path root) {
        String log = git(root, "log", "-1", "--format=%H%x00%s%x00%an <%ae>%x00%cI");
        String[] parts = log == null ? new String[0] : log.split("\0", -1);
        if (parts.length < 4) {
            return new GitInfo("unknown", "", "", "", true);
        }
        // Results and history directories are ignored; anything else uncommitted makes the measurement dirty.
        String status = git(root, "status", "--porcelain", "--untracked-files=no");
        return new GitInfo(parts[0], parts[1], parts[2], parts[3], status == null || !status.isBlank());
    }

    String shortId() {
        return id.length() >= 7 ? id.substring(0, 7) : id;
    }

    private static String git(Path root, String... args) {
        try {
            List<String> argv = new java.util.ArrayList<>(List.of("git", "-C", root.toString()));
            argv.addAll(List.of(args));
            Process p = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0 ? out : null;
        } catch (Exception e) {
            return null;
        }
    }
}
