package dev.restbench.runner.stats;

import java.util.SplittableRandom;

/**
 * What a paired A/B design can see on a given machine: the simulated detection rate of a true change and the
 * family-wise false-alarm rate, from the machine's variance components (measured with {@link VarianceComponents}).
 * This turns "between-start noise x %, window noise y %" into "n blocks of K windows per start find a 10 %
 * regression z % of the time" — the figure a time budget is chosen by (Kalibera & Jones 2013 plan repetitions the
 * same way, from measured components).
 *
 * <p>Model, on the log scale, per series and block b: base = c_b + u_b + ē_b and head = ln(ratio) + c_b + u'_b + ē'_b,
 * with c_b ~ N(0, blockDriftSd²) shared by the block's two starts (the slow drift of the machine that pairing
 * cancels), u, u' ~ N(0, betweenStartSd²) per start, and ē, ē' ~ N(0, withinStartSd² / K) the mean of a start's K
 * windows. The rule is the one {@code ./bench ab} runs (docs/method.md, "A/B"): one verdict after the last
 * round, at α, one-sided. Each comparison's log ratios get the one-sided p-values of {@link PairedRatio#pValues}
 * (t-test), and the m primary series' p-values for one direction go through {@link MultipleComparisons#holm}.
 * Detection: the one changed series (the others unchanged) is rejected at α in the direction of the true change, with
 * its estimate at least the minimum effect away from no change. False alarm: with no change anywhere, any of the m
 * series is so flagged, either way (at most about 2α); a false regression, in the tested direction (at most α). The series are simulated
 * independent; Holm keeps the family-wise rate ≤ α under any dependence, and positively correlated metrics (CPU and
 * latency move together) make it lower than simulated here. ab.VerdictRulesSimulationTest checks these figures
 * against the same designs run through the A/B code itself.
 */
public final class PowerSimulation {

    private PowerSimulation() {
    }

    /** Standard deviations of ln values (≈ relative noise: 0.05 is 5 %). */
    public record Noise(double betweenStartSd, double withinStartSd, double blockDriftSd) {

        public static Noise of(VarianceComponents.Components components) {
            return new Noise(Math.sqrt(components.betweenVariance()), Math.sqrt(components.withinVariance()), 0);
        }
    }

    /** blocks A/B blocks, each one base and one head start measured over windowsPerStart windows. */
    public record Design(int blocks, int windowsPerStart) {
    }

    /**
     * @param detectionRate        share of replications where the changed series was found, in the right direction
     * @param falseAlarmRate       share of replications without any change where any of the m series was flagged,
     *                             either way
     * @param falseRegressionRate  the same, flagged as a change in the direction of the tested one (a red headline
     *                             when that is the worse direction)
     */
    public record Rates(double detectionRate, double falseAlarmRate, double falseRegressionRate, int replications) {
    }

    /**
     * @param trueRatio      head / base of the changed series, e.g. 1.10 for +10 %
     * @param alpha          family-wise level of the Holm-corrected paired tests, e.g. 0.05
     * @param minEffectPct   the metric's minimum effect in % (benchmarks.json): a flag needs |change| at least this
     * @param primarySeries  m, the number of primary series judged together (≥ 1)
     * @param seed           the same seed gives the same rates
     */
    public static Rates simulate(Noise noise, Design design, double trueRatio, double alpha, double minEffectPct,
                                 int primarySeries, int replications, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        boolean up = trueRatio >= 1;
        int detected = 0;
        int falseAlarms = 0;
        int falseRegressions = 0;
        double[] means = new double[primarySeries];
        double[] above = new double[primarySeries];
        double[] below = new double[primarySeries];
        for (int r = 0; r < replications; r++) {
            for (int s = 0; s < primarySeries; s++) {
                draw(noise, design, s == 0 ? trueRatio : 1, random, s, means, above, below);
            }
            // The changed series' family: one-sided tests of every series in its direction, Holm over them.
            double[] family = MultipleComparisons.holm(up ? above : below);
            if (family[0] <= alpha && (means[0] > 0) == up && reaches(means[0], minEffectPct)) {
                detected++;
            }
            for (int s = 0; s < primarySeries; s++) {
                draw(noise, design, 1, random, s, means, above, below);
            }
            boolean sameWay = flagged(MultipleComparisons.holm(up ? above : below), means, up, alpha, minEffectPct);
            boolean otherWay = flagged(MultipleComparisons.holm(up ? below : above), means, !up, alpha, minEffectPct);
            falseRegressions += sameWay ? 1 : 0;
            falseAlarms += sameWay || otherWay ? 1 : 0;
        }
        return new Rates((double) detected / replications, (double) falseAlarms / replications,
                (double) falseRegressions / replications, replications);
    }

    /** One series' log ratios: their mean and one-sided p-values, as PairedJudge takes them from the t-test. */
    private static void draw(Noise noise, Design design, double ratio, SplittableRandom random, int s, double[] means,
                             double[] above, double[] below) {
        double[] d = simulatedLogRatios(noise, design, ratio, random);
        PairedRatio.PValues p = PairedRatio.pValues(d, PairedRatio.Test.T);
        means[s] = Descriptive.mean(d);
        above[s] = p.above();
        below[s] = p.below();
    }

    /** Any series of the family rejected, moved its way and by at least the minimum effect. */
    private static boolean flagged(double[] adjusted, double[] means, boolean up, double alpha, double minEffectPct) {
        for (int s = 0; s < adjusted.length; s++) {
            if (adjusted[s] <= alpha && (means[s] > 0) == up && reaches(means[s], minEffectPct)) {
                return true;
            }
        }
        return false;
    }

    /** The verdict's minimum-effect condition: |exp(mean d) − 1| × 100 ≥ the minimum effect. */
    private static boolean reaches(double meanLogRatio, double minEffectPct) {
        return Math.abs(Math.expm1(meanLogRatio)) * 100 >= minEffectPct;
    }

    /** One simulated A/B comparison: per block ln(head / base) of the simulated values. */
    private static double[] simulatedLogRatios(Noise noise, Design design, double trueRatio,
                                               SplittableRandom random) {
        double[] base = new double[design.blocks()];
        double[] head = new double[design.blocks()];
        for (int b = 0; b < design.blocks(); b++) {
            double drift = noise.blockDriftSd() * random.nextGaussian();
            base[b] = Math.exp(drift + startNoise(noise, design, random));
            head[b] = Math.exp(Math.log(trueRatio) + drift + startNoise(noise, design, random));
        }
        return PairedRatio.logRatios(base, head);
    }

    /** One start: its own offset plus the mean of its K windows' noise (drawn directly as N(0, σ²/K)). */
    private static double startNoise(Noise noise, Design design, SplittableRandom random) {
        return noise.betweenStartSd() * random.nextGaussian()
                + noise.withinStartSd() / Math.sqrt(design.windowsPerStart()) * random.nextGaussian();
    }
}
