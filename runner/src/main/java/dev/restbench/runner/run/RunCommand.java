package dev.restbench.runner.run;

import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Command;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.build.VariantChecks;
import dev.restbench.manifest.Manifest;
import dev.restbench.runner.manifest.Manifests;

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
        Manifest manifest = Manifests.load(options.manifest());
        RunSelection selection = RunSelection.of(manifest, options);
        Runtimes runtimes = Runtimes.ofThisMachine();
        // Variants at URLs (--services) are neither built nor started here.
        List<Manifest.Variant> started = selection.variants().stream()
                .filter(v -> !options.services().containsKey(v.name())).toList();
        VariantBuilder builder = options.build()
                ? new VariantBuilder(options.root(), manifest, runtimes, System.out) : null;
        VariantChecks.Report checks = VariantChecks.check(options.root(), manifest, started, runtimes, builder);
        if (options.dryRun()) {
            System.out.println(selection.describe());
            System.out.println("variants (runtime on this machine, artifact):");
            checks.lines().forEach(System.out::println);
        }
        if (!checks.problems().isEmpty()) {
            // Before anything is built, started or written: a run that cannot start a variant is not begun.
            checks.problems().forEach(p -> System.err.println("bench run: " + p));
            return 2;
        }
        if (options.dryRun()) {
            return 0;
        }
        if (builder != null) {
            builder.build(started, false, false);
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
