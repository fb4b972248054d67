package dev.restbench.runner.history;

import java.util.regex.Pattern;

/**
 * Where a run's flame graph lives in the history: run.json names it relative to the run directory
 * ({@code flamegraphs/<cell>/cpu.html}); the history keeps it as {@code flamegraphs/<runId>/<cell>/cpu.html}. The
 * one mapping, for the copy (History) and the links (latest.json).
 */
final class FlameGraphLinks {

    private static final Pattern RUN_PATH = Pattern.compile("flamegraphs/[A-Za-z0-9._-]+/(cpu|alloc)\\.html");

    private FlameGraphLinks() {
    }

    /** The history path, or null for anything that is not a flame graph page of the run (never a path outside). */
    static String inHistory(String runId, String runPath) {
        if (runPath == null || !RUN_PATH.matcher(runPath).matches()) {
            return null;
        }
        return "flamegraphs/" + runId + "/" + runPath.substring("flamegraphs/".length());
    }
}
