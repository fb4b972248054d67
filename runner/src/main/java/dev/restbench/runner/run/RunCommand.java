package dev.restbench.runner.run;

import dev.restbench.runner.Command;
import dev.restbench.runner.manifest.Manifest;
import dev.restbench.runner.manifest.ManifestLoader;

import dev.restbench.runner.history.History;
import dev.restbench.runner.site.SiteCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** `./bench run`: the benchmark matrix of one profile. */
public final class RunCommand implements Command {

    @Override
    public String summary() {
        return "run the benchmarks of a profile (default quick) and write results/<run-id>/";
    }

    @Override
    public String help() {
        return RunOptions.HELP;
    }

    @Override
    public int run(List<String> args) throws Exception {
        RunOptions options = RunOptions.parse(args);
        Manifest manifest = ManifestLoader.load(options.manifest());
        RunSelection selection = RunSelection.of(manifest, options);
        if (options.dryRun()) {
            System.out.println(selection.describe());
            return 0;
        }
        BenchmarkRun run = new BenchmarkRun(manifest, selection, options, System.out);
        int exit = run.execute(BenchmarkRun.RoundListener.ALL);
        if (options.history().isPresent() && run.runDirectory() != null
                && Files.isRegularFile(run.runDirectory().resolve("run.json"))) {
            appendToHistory(options, run.runDirectory(), options.history().get());
        }
        return exit;
    }

    /** Local mode of the gh-pages flow: the same history files and site the workflow publishes. */
    private static void appendToHistory(RunOptions options, Path runDir, Path history) throws Exception {
        History.AppendResult result = new History(history).append(runDir, new History.AppendOptions(null, false, null));
        SiteCommand.publish(options.root().resolve("site"), history);
        System.out.println("history: " + (result.alreadyPresent() ? "already held " : "appended ") + result.runId()
                + " to " + history + "; see the trends with: ./bench site --serve"
                + (history.equals(options.root().resolve("history")) ? "" : " --history " + history));
    }
}
