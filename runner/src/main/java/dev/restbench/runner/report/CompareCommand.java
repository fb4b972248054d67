package dev.restbench.runner.report;

import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.HistoryJudge;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.history.History;
import dev.restbench.runner.io.AtomicFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code ./bench compare}: a run against the history (a verdict only from a prediction interval over at least 10
 * comparable past runs), or against one other run (figures and changes side by side, no verdict: one run is no
 * history, and two separate runs share no machine state; {@code ./bench ab} is the paired verdict).
 */
public final class CompareCommand implements Command {

    /** Exit code when --fail-on-regression is given and a regression was found. */
    public static final int EXIT_REGRESSION = 3;
    static final double ALPHA = 0.05;
    static final double MIN_EFFECT_PCT = 5.0;
    static final int HISTORY_WINDOW = 30;

    @Override
    public String summary() {
        return "compare a run with the history (prediction intervals) or with another run: PR-comment markdown";
    }

    @Override
    public String help() {
        return """
                usage: ./bench compare [options] --history <dir> <head results dir>
                       ./bench compare [options] <base results dir> <head results dir>

                With --history: every variant x scenario x regime x metric of head against the newest 30 comparable
                runs of the history (same environment fingerprint — machine and method — and profile): a verdict only
                from a prediction interval over at least 10 of them, Holm for the primary series, Benjamini-Hochberg
                for the others (docs/verdicts.md). With two runs: both figures and the change, no verdict (one run is
                no history; use ./bench ab for a paired verdict). Prints the PR-comment markdown.

                options:
                  --history <dir>         history directory (gh-pages layout, dev/bench/ inside)
                  --output <file>         also write the markdown to this file (e.g. $GITHUB_STEP_SUMMARY)
                  --fail-on-regression    exit 3 when a primary series regressed or a cell failed
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
        if (!(runs.size() == 2 && history == null) && !(history != null && runs.size() == 1)) {
            throw new UsageException("give --history <dir> and one results directory, or two results directories");
        }
        Judgement judgement;
        try {
            RunRecord head = RunRecord.read(Path.of(runs.get(runs.size() - 1)));
            if (history != null) {
                judgement = HistoryJudge.judge(history.loadRuns(), head, HISTORY_WINDOW, ALPHA, MIN_EFFECT_PCT);
            } else {
                RunRecord base = RunRecord.read(Path.of(runs.get(0)));
                List<RunRecord> one = new ArrayList<>(List.of(base));
                judgement = HistoryJudge.judge(one, head, 1, ALPHA, MIN_EFFECT_PCT);
                String notComparable = Judgement.notComparableReason(base, head);
                if (notComparable != null) {
                    System.err.println("note: " + notComparable + " — the figures are shown side by side only");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("bench compare: " + e.getMessage());
            return 2;
        }
        String markdown = PrComment.render(judgement,
                PrComment.Links.fromEnvironment(options.value("reports-url").orElse(null),
                        options.value("site-url").orElse(null)),
                List.of());
        System.out.print(markdown);
        if (options.value("output").isPresent()) {
            AtomicFiles.writeString(Path.of(options.value("output").get()), markdown);
        }
        return options.flag("fail-on-regression") && judgement.hasRegression() ? EXIT_REGRESSION : 0;
    }
}
