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
 * windows. Each comparison's log ratios get the p-value of {@link PairedRatio#tTest}, and the m primary series'
 * p-values go through {@link MultipleComparisons#holm}. Detection: the one changed series (the others unchanged) is
 * rejected at α with its estimate on the side of the true change. False alarm: with no change anywhere, any of the m
 * series is rejected. The series are simulated independent; Holm keeps the family-wise rate ≤ α under any
 * dependence, and positively correlated metrics (CPU and latency move together) make it lower than simulated here.
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
     * @param detectionRate   share of replications where the changed series was found, in the right direction
     * @param falseAlarmRate  share of replications without any change where any of the m series was flagged
     */
    public record Rates(double detectionRate, double falseAlarmRate, int replications) {
    }

    /**
     * @param trueRatio      head / base of the changed series, e.g. 1.10 for +10 %
     * @param alpha          family-wise level of the Holm-corrected paired tests, e.g. 0.05
     * @param primarySeries  m, the number of primary series judged together (≥ 1)
     * @param seed           the same seed gives the same rates
     */
    public static Rates simulate(Noise noise, Design design, double trueRatio, double alpha, int primarySeries,
                                 int replications, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int detected = 0;
        int falseAlarms = 0;
        for (int r = 0; r < replications; r++) {
            double[] pValues = new double[primarySeries];
            boolean rightDirection = true;
            for (int s = 0; s < primarySeries; s++) {
                double[] d = simulatedLogRatios(noise, design, s == 0 ? trueRatio : 1, random);
                pValues[s] = PairedRatio.pValue(d);
                if (s == 0) {
                    rightDirection = (Descriptive.mean(d) > 0) == (trueRatio > 1);
                }
            }
            if (MultipleComparisons.holm(pValues)[0] <= alpha && rightDirection) {
                detected++;
            }
            for (int s = 0; s < primarySeries; s++) {
                pValues[s] = PairedRatio.pValue(simulatedLogRatios(noise, design, 1, random));
            }
            double smallest = 1;
            for (double adjusted : MultipleComparisons.holm(pValues)) {
                smallest = Math.min(smallest, adjusted);
            }
            if (smallest <= alpha) {
                falseAlarms++;
            }
        }
        return new Rates((double) detected / replications, (double) falseAlarms / replications, replications);
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
