package dev.restbench.runner.report;

import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.HistoryJudge;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.history.History;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ./bench compare}: a run against the history (a verdict only from a prediction interval over at least 10
 * comparable past runs), or against one other run (figures and changes side by side, no verdict: one run is no
 * history, and two separate runs share no machine state; {@code ./bench ab} is the paired verdict).
 */
@Command(name = "compare",
        header = "compare a run with the history (prediction intervals) or with another run: PR-comment markdown",
        customSynopsis = {"./bench compare [options] --history <dir> <head results dir>",
                "       ./bench compare [options] <base results dir> <head results dir>"},
        description = "With --history: every variant x scenario x regime x metric of head against the newest 30"
                + " comparable runs of the history (same environment fingerprint — machine and method — and profile):"
                + " a verdict only from a prediction interval over at least 10 of them, Holm for the primary series,"
                + " Benjamini-Hochberg for the others (docs/method.md). With two runs: both figures and the change,"
                + " no verdict (one run is no history; use ./bench ab for a paired verdict). Prints the PR-comment"
                + " markdown.",
        exitCodeList = {"0:compared (whatever the verdicts)", "1:failure", "2:bad input or usage",
                "3:regression found (only with --fail-on-regression)"})
public final class CompareCommand implements Callable<Integer> {

    /** Exit code when --fail-on-regression is given and a regression was found. */
    public static final int EXIT_REGRESSION = 3;
    static final double ALPHA = 0.05;
    static final double MIN_EFFECT_PCT = 5.0;
    static final int HISTORY_WINDOW = 30;

    @Option(names = "--history", paramLabel = "<dir>", description = "history directory (gh-pages layout, dev/bench/ inside)")
    private Path historyDir;

    @Mixin
    private CommentOptions comment;

    @Parameters(paramLabel = "<results dir>", arity = "1..2",
            description = "the head run, or the base run and the head run")
    private List<Path> runs;

    @Override
    public Integer call() throws Exception {
        History history = historyDir == null ? null : new History(historyDir);
        if (!(runs.size() == 2 && history == null) && !(history != null && runs.size() == 1)) {
            throw new UsageException("give --history <dir> and one results directory, or two results directories");
        }
        Judgement judgement;
        try {
            RunRecord head = RunRecord.read(runs.get(runs.size() - 1));
            if (history != null) {
                judgement = HistoryJudge.judge(history.loadRuns(), head, HISTORY_WINDOW, ALPHA,
                        MetricRules.ofRecord(head, MIN_EFFECT_PCT));
            } else {
                RunRecord base = RunRecord.read(runs.get(0));
                List<RunRecord> one = new ArrayList<>(List.of(base));
                judgement = HistoryJudge.judge(one, head, 1, ALPHA, MetricRules.ofRecord(head, MIN_EFFECT_PCT));
                String notComparable = Judgement.notComparableReason(base, head);
                if (notComparable != null) {
                    System.err.println("note: " + notComparable + " — the figures are shown side by side only");
                }
            }
        } catch (IllegalArgumentException e) {
            System.err.println("bench compare: " + e.getMessage());
            return 2;
        }
        return comment.print(PrComment.render(judgement, comment.links(), List.of()), judgement);
    }
}
