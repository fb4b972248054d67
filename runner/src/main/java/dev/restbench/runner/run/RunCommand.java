package dev.restbench.runner.run;

import dev.restbench.runner.Command;
import dev.restbench.runner.manifest.Manifest;
import dev.restbench.runner.manifest.ManifestLoader;

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
        return new BenchmarkRun(manifest, selection, options, new GatlingModuleReader(), System.out).execute();
    }
}
