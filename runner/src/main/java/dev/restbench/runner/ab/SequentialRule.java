package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.run.BenchmarkRun;

import java.io.PrintStream;
import java.util.Locale;

/**
 * How many rounds an A/B runs and at which level its verdict is judged (docs/method.md, "A/B"). After the first
 * round, whose length (database setup included, so slightly pessimistic) fixes the plan, the rule runs the rounds the
 * budget allows, at most {@code maxRounds}, and stops early only when the next round would not fit the budget. The
 * verdict is judged once, after the last round, at α ({@link AbCommand#EARLY_ALPHA} is 0).
 *
 * <p>The rule can also spend a share {@code earlyAlpha} of α on early looks: after every round from {@code minRounds}
 * to the one before the last planned, each look at earlyAlpha / (its number), stopping once every primary series is
 * decided; the last round is then judged at α − earlyAlpha (Bonferroni over looks: valid whatever the data). It was
 * simulated through this code on the noise this box measured and is not used: with CPU per request a primary metric
 * a series is "no change" only when its interval lies inside ± 5 %, which 20 rounds at 8.4 % per round never reach,
 * so the early stop never fired, and the share cost about a point of power (VerdictRulesSimulationTest). Until 2026-11
 * every look, the last one included, was tested at α / looks: 8 % power for +10 % CPU where the last round alone
 * gives 25 % (review D1).
 */
final class SequentialRule implements BenchmarkRun.RoundListener {

    private final int minRounds;
    private final int maxRounds;
    private final double budgetSeconds;
    private final double alpha;
    private final double earlyAlpha;
    private final MetricRules rules;
    private final PrintStream out;
    private int plannedRounds;
    private String stopReason;
    private double verdictAlpha;

    /**
     * @param alpha      the family-wise level of the whole A/B
     * @param earlyAlpha the share of alpha spent on early "all decided" looks; 0: none, one verdict after the last
     *                   round at alpha
     */
    SequentialRule(int minRounds, int maxRounds, double budgetSeconds, double alpha, double earlyAlpha,
                   MetricRules rules, PrintStream out) {
        if (!(earlyAlpha >= 0 && earlyAlpha < alpha)) {
            throw new IllegalArgumentException("earlyAlpha must be in [0, alpha), was " + earlyAlpha);
        }
        this.minRounds = minRounds;
        this.maxRounds = maxRounds;
        this.budgetSeconds = budgetSeconds;
        this.alpha = alpha;
        this.earlyAlpha = earlyAlpha;
        this.rules = rules;
        this.out = out;
        this.plannedRounds = maxRounds;
        this.verdictAlpha = alpha;
    }

    @Override
    public boolean another(int roundsDone, ObjectNode partialRun, double secondsSoFar) {
        double perRound = secondsSoFar / roundsDone;
        if (roundsDone == 1) {
            plannedRounds = (int) Math.max(1, Math.min(maxRounds, Math.floor(budgetSeconds / perRound)));
            verdictAlpha = finalAlpha();
            out.printf(Locale.ROOT, "A/B: a round took %.0f s; the %.0f-minute budget allows %d round(s), judged after"
                    + " the last at α = %.4f%s%n", perRound, budgetSeconds / 60, plannedRounds, finalAlpha(),
                    earlyLooks() == 0 ? "" : String.format(Locale.ROOT, " (%d early look(s), each at α = %.4f)",
                            earlyLooks(), earlyLookAlpha()));
        }
        if (roundsDone >= plannedRounds) {
            stopReason = "the budget's " + plannedRounds + " round(s) ran";
            return false;
        }
        if (earlyLooks() > 0 && roundsDone >= minRounds) {
            Judgement judgement = judge(RunRecord.of(partialRun, "round " + roundsDone), earlyLookAlpha());
            long undecided = judgement.rows().stream().filter(SeriesVerdict::primary)
                    .filter(r -> !r.verdict().decided()).count();
            out.printf(Locale.ROOT, "A/B after %d rounds: %s, %d primary series undecided%n", roundsDone,
                    judgement.status().label(), undecided);
            if (undecided == 0) {
                stopReason = "every primary series decided after " + roundsDone + " rounds";
                verdictAlpha = earlyLookAlpha();
                return false;
            }
        }
        if (secondsSoFar + perRound > budgetSeconds) {
            stopReason = "the next round would exceed the budget";
            return false;
        }
        return true;
    }

    /** Early looks the plan allows: one after every round from minRounds to the one before the last; 0 without a share. */
    int earlyLooks() {
        return earlyAlpha == 0 ? 0 : Math.max(0, plannedRounds - minRounds);
    }

    double earlyLookAlpha() {
        return earlyAlpha / Math.max(1, earlyLooks());
    }

    /** The level of the verdict after the last round: α, less the share early looks may have spent. */
    double finalAlpha() {
        return earlyLooks() == 0 ? alpha : alpha - earlyAlpha;
    }

    /** The level the run's verdict is judged at: the last round's, or the early look's that stopped it. */
    double verdictAlpha() {
        return verdictAlpha;
    }

    String stopReason() {
        return stopReason;
    }

    private Judgement judge(RunRecord run, double level) {
        return new Design(null, null, level, rules, null).judge(run);
    }
}
