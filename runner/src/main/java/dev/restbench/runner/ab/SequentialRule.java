package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.run.BenchmarkRun;

import java.io.PrintStream;
import java.util.Locale;

/**
 * When the sequential A/B stops adding rounds (docs/verdicts.md, "A/B"): never before {@code minRounds}; then after
 * every round, once every primary series is decided (a regression, an improvement, a "no change" or a failure), or
 * when the next round would not fit the time budget, or at {@code maxRounds}.
 *
 * <p>Looking after every round and stopping at the first decision would raise the false-alarm rate above α (each
 * look is another chance). The rule pays for that up front, Bonferroni-style: after the first round it fixes the most
 * rounds the budget allows, counts the looks that leaves (one per round from {@code minRounds} on) and tests every look
 * at α / looks. Simple, valid whatever the data, and conservative.
 */
final class SequentialRule implements BenchmarkRun.RoundListener {

    private final int minRounds;
    private final int maxRounds;
    private final double budgetSeconds;
    private final double alpha;
    private final MetricRules rules;
    private final PrintStream out;
    private int plannedRounds;
    private String stopReason;

    SequentialRule(int minRounds, int maxRounds, double budgetSeconds, double alpha, MetricRules rules,
                   PrintStream out) {
        this.minRounds = minRounds;
        this.maxRounds = maxRounds;
        this.budgetSeconds = budgetSeconds;
        this.alpha = alpha;
        this.rules = rules;
        this.out = out;
        this.plannedRounds = maxRounds;
    }

    @Override
    public boolean another(int roundsDone, ObjectNode partialRun, double secondsSoFar) {
        double perRound = secondsSoFar / roundsDone;
        if (roundsDone == 1) {
            // The first round's length (the database setup included, so slightly pessimistic) fixes the plan.
            plannedRounds = (int) Math.max(1, Math.min(maxRounds, Math.floor(budgetSeconds / perRound)));
            out.printf(Locale.ROOT, "A/B: a round took %.0f s; the %.0f-minute budget allows %d round(s) (%d look(s),"
                    + " each at α = %.4f)%n", perRound, budgetSeconds / 60, plannedRounds, looks(), lookAlpha());
        }
        if (roundsDone >= plannedRounds) {
            stopReason = "the budget's " + plannedRounds + " round(s) ran";
            return false;
        }
        if (roundsDone >= minRounds) {
            Judgement judgement = judge(RunRecord.of(partialRun, "round " + roundsDone));
            long undecided = judgement.rows().stream().filter(SeriesVerdict::primary)
                    .filter(r -> !r.verdict().decided()).count();
            out.printf(Locale.ROOT, "A/B after %d rounds: %s, %d primary series undecided%n", roundsDone,
                    judgement.status().label(), undecided);
            if (undecided == 0) {
                stopReason = "every primary series decided after " + roundsDone + " rounds";
                return false;
            }
        }
        if (secondsSoFar + perRound > budgetSeconds) {
            stopReason = "the next round would exceed the budget";
            return false;
        }
        return true;
    }

    /** The number of looks the plan allows: one per round from minRounds to the planned rounds. */
    int looks() {
        return Math.max(1, plannedRounds - Math.min(minRounds, plannedRounds) + 1);
    }

    /** The level each look is tested at. */
    double lookAlpha() {
        return alpha / looks();
    }

    String stopReason() {
        return stopReason;
    }

    Judgement judge(RunRecord run) {
        return new Design(null, null, lookAlpha(), rules, null).judge(run);
    }
}
