package dev.restbench.runner.report;

import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.HistoricalNoise;
import dev.restbench.runner.analysis.RunComparison;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.VerdictRule;
import dev.restbench.runner.history.History;
import dev.restbench.runner.io.AtomicFiles;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code ./bench compare}: base vs head with verdicts, printed as the PR-comment markdown. */
public final class CompareCommand implements Command {

    /** Exit code when --fail-on-regression is given and a regression was found. */
    public static final int EXIT_REGRESSION = 3;

    @Override
    public String summary() {
        return "compare two runs (or a run with the history): verdicts per series, PR-comment markdown";
    }

    @Override
    public String help() {
        return """
                usage: ./bench compare [options] <base results dir> <head results dir>
                       ./bench compare [options] --history <dir> <head results dir>

                Compares every variant x scenario x regime x metric of head with base: median ± spread of each,
                Δ %, and a verdict (regression, improvement, within-noise, inconclusive, not-comparable); see
                docs/verdicts.md. With --history, base is the newest comparable run of the history (same
                environment fingerprint and profile) and each series' historical noise widens its band; with
                --history and two runs, the history only supplies the noise. Prints the PR-comment markdown.

                options:
                  --history <dir>         history directory (gh-pages layout, dev/bench/ inside)
                  --output <file>         also write the markdown to this file (e.g. $GITHUB_STEP_SUMMARY)
                  --fail-on-regression    exit 3 when any series regressed
                  --reports-url <url>     link to the Gatling reports artifact (default $RESTBENCH_REPORTS_URL,
                                          or the GitHub Actions run page)
                  --site-url <url>        link to the site (default $RESTBENCH_SITE_URL)

                exit codes: 0 compared (whatever the verdicts), 1 failure, 2 bad input or usage,
                            3 regression found (only with --fail-on-regression)""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options options = Options.parse(args, Set.of("history", "output", "reports-url", "site-url"),
                Set.of("fail-on-regression"));
        List<String> runs = options.positional();
        History history = options.value("history").map(dir -> new History(Path.of(dir))).orElse(null);
        if (runs.size() != 2 && !(history != null && runs.size() == 1)) {
            throw new UsageException("give two results directories, or --history <dir> and one");
        }
        RunComparison comparison;
        try {
            RunRecord head = RunRecord.read(Path.of(runs.get(runs.size() - 1)));
            RunRecord base = runs.size() == 2 ? RunRecord.read(Path.of(runs.get(0)))
                    : history.latestComparable(head).orElse(null);
            Map<String, Double> noise = history == null ? Map.of() : HistoricalNoise.forHead(history.loadRuns(), head);
            comparison = RunComparison.compare(base, head, noise, new VerdictRule());
        } catch (IllegalArgumentException e) {
            System.err.println("bench compare: " + e.getMessage());
            return 2;
        }
        String markdown = PrComment.render(comparison,
                PrComment.Links.fromEnvironment(options.value("reports-url").orElse(null),
                        options.value("site-url").orElse(null)),
                List.of());
        System.out.print(markdown);
        if (options.value("output").isPresent()) {
            AtomicFiles.writeString(Path.of(options.value("output").get()), markdown);
        }
        return options.flag("fail-on-regression") && comparison.hasRegression() ? EXIT_REGRESSION : 0;
    }
}
