package dev.restbench.runner.run;

import dev.restbench.runner.manifest.Manifest;

/** Executes a {@link RunSelection}. */
final class BenchmarkRun {
    private final Manifest manifest;
    private final RunSelection selection;
    private final RunOptions options;

    BenchmarkRun(Manifest manifest, RunSelection selection, RunOptions options) {
        this.manifest = manifest;
        this.selection = selection;
        this.options = options;
    }

    int execute() {
        throw new UnsupportedOperationException("not yet");
    }
}
