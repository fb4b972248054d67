package dev.restbench.runner.stats;

import org.apache.commons.statistics.inference.OneWayAnova;

import java.util.ArrayList;
import java.util.List;

/**
 * Where the noise is: between service starts (each JVM start compiles differently, lands on other addresses) and
 * within a start (window to window). A two-level random-effects model on the log scale,
 * ln y_tw = μ + u_t + e_tw, u_t ~ N(0, σ²_between), e_tw ~ N(0, σ²_within), so both components are relative
 * (σ ≈ CV for small values). Estimated by the one-way ANOVA method of moments, which also holds for unbalanced
 * designs (Searle, Casella & McCulloch 1992, §3.5): σ²_within = MSW,
 * σ²_between = max(0, (MSB − MSW) / n₀), n₀ = (N − Σnₜ² / N) / (a − 1). The mean squares come from Commons
 * Statistics' {@link OneWayAnova}; its own "variance components" are the shares (ICC), not the variances.
 *
 * <p>Kalibera & Jones (2013) use these components to spend a time budget where the variance is: the variance of the
 * grand mean of a starts × K windows is σ²_between / starts + σ²_within / (starts · K), and for a cost per start
 * (JVM start, warmup) and per window the cheapest K for a given precision is √((c_start / c_window) ·
 * (σ²_within / σ²_between)). When the between-start component dominates (as measured on this box: ~13 % between
 * starts, 5–20 % window to window), more windows per start buy little and only more starts narrow the interval.
 */
public final class VarianceComponents {

    private VarianceComponents() {
    }

    public enum Status {
        /** Two or more starts, at least one with two or more windows: both components estimated. */
        ESTIMATED,
        /** One start: the between-start component is unknown (reported as 0, which it need not be). */
        ONE_START,
        /** Every start has one window: the two components cannot be separated; all variance is reported between. */
        ONE_WINDOW_PER_START
    }

    /**
     * @param starts             the number of starts (trials)
     * @param windows            the number of windows over all starts
     * @param betweenVariance    σ²_between of ln values, truncated at 0
     * @param withinVariance     σ²_within of ln values
     * @param betweenPValue      p-value of the ANOVA F-test of σ²_between = 0 (1 when it cannot be computed)
     */
    public record Components(int starts, int windows, double betweenVariance, double withinVariance,
                             double betweenPValue, Status status) {

        /** Intra-class correlation: the share of the variance of one window that is between starts (0 if none). */
        public double icc() {
            double total = betweenVariance + withinVariance;
            return total == 0 ? 0 : betweenVariance / total;
        }

        /** Between-start coefficient of variation in %, exact for a log-normal: 100 √(exp(σ²) − 1). */
        public double betweenCvPct() {
            return cvPct(betweenVariance);
        }

        public double withinCvPct() {
            return cvPct(withinVariance);
        }

        /** Variance of the log grand mean of a design of starts × windowsPerStart. */
        public double grandMeanVariance(int starts, int windowsPerStart) {
            return betweenVariance / starts + withinVariance / ((double) starts * windowsPerStart);
        }

        /**
         * Standard deviation of one A/B block's log ratio, ln(head/base), each side one start of K windows:
         * √(2 (σ²_between + σ²_within / K)). This is what the paired test on n blocks divides by √n.
         */
        public double blockLogRatioSd(int windowsPerStart) {
            return Math.sqrt(2 * (betweenVariance + withinVariance / windowsPerStart));
        }

        /**
         * Kalibera & Jones' optimal number of windows per start, √((startCost / windowCost) · σ²_within /
         * σ²_between), rounded up, between 1 and maxWindows (maxWindows when there is no between-start variance).
         */
        public int optimalWindowsPerStart(double startCost, double windowCost, int maxWindows) {
            if (betweenVariance == 0) {
                return maxWindows;
            }
            double optimum = Math.sqrt(startCost / windowCost * withinVariance / betweenVariance);
            return (int) Math.max(1, Math.min(maxWindows, Math.ceil(optimum)));
        }

        private static double cvPct(double logVariance) {
            return 100 * Math.sqrt(Math.expm1(logVariance));
        }
    }

    /** @param trials per start, its windows' values (positive; starts may have different numbers of windows) */
    public static Components estimate(double[][] trials) {
        List<double[]> logs = new ArrayList<>();
        int windows = 0;
        for (double[] trial : trials) {
            logs.add(Descriptive.logs(trial));
            windows += trial.length;
        }
        int starts = logs.size();
        if (starts == 0) {
            throw new IllegalArgumentException("no starts");
        }
        if (starts == 1) {
            return new Components(1, windows, 0, Descriptive.variance(logs.get(0)), 1, Status.ONE_START);
        }
        if (windows == starts) {
            double[] values = logs.stream().mapToDouble(trial -> trial[0]).toArray();
            return new Components(starts, windows, Descriptive.variance(values), 0, 1,
                    Status.ONE_WINDOW_PER_START);
        }
        OneWayAnova.Result anova = OneWayAnova.withDefaults().test(logs);
        double sumOfSquaredSizes = 0;
        for (double[] trial : logs) {
            sumOfSquaredSizes += (double) trial.length * trial.length;
        }
        double n0 = (windows - sumOfSquaredSizes / windows) / (starts - 1);
        double within = anova.getMSWG();
        double between = Math.max(0, (anova.getMSBG() - within) / n0);
        // All values equal: the F statistic is 0/0; there is no evidence of a between-start component.
        double p = Double.isNaN(anova.getPValue()) ? 1 : anova.getPValue();
        return new Components(starts, windows, between, within, p, Status.ESTIMATED);
    }

    /**
     * How precise the between-start CV of these starts is (review D8: Spring MVC's 10.8 % from 8 starts has a 90 %
     * range of 5.4–15.7 %): a parametric bootstrap. The same design — as many starts, each with its number of
     * windows — is drawn {@code replications} times from the estimated components, re-estimated, and the
     * between-start CVs' central {@code level} share is the interval. Seeded, so a report reprints the same figures.
     *
     * @return the interval of the between-start CV in %, or null when the components cannot be separated
     */
    public static Interval betweenCvInterval(double[][] trials, double level, int replications, long seed) {
        Components measured = estimate(trials);
        if (measured.status() != Status.ESTIMATED) {
            return null;
        }
        double betweenSd = Math.sqrt(measured.betweenVariance());
        double withinSd = Math.sqrt(measured.withinVariance());
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        double[] cvs = new double[replications];
        for (int r = 0; r < replications; r++) {
            double[][] drawn = new double[trials.length][];
            for (int t = 0; t < trials.length; t++) {
                double start = betweenSd * random.nextGaussian();
                drawn[t] = new double[trials[t].length];
                for (int w = 0; w < drawn[t].length; w++) {
                    drawn[t][w] = Math.exp(start + withinSd * random.nextGaussian());
                }
            }
            cvs[r] = estimate(drawn).betweenCvPct();
        }
        java.util.Arrays.sort(cvs);
        double tail = (1 - level) / 2;
        return new Interval(cvs[(int) Math.floor(tail * (replications - 1))],
                cvs[(int) Math.ceil((1 - tail) * (replications - 1))], level);
    }

    /**
     * The per-round sd of paired log ratios (an A/A's: two copies of one jar, one start each per round) with its
     * {@code level} interval from the χ² distribution of (n − 1) s² / σ² (review D8: the components above count any
     * round-to-round drift as noise, which pairing cancels; this is what a paired verdict actually faces).
     *
     * @return [sd, low, high] on the log scale, or null with fewer than 3 rounds
     */
    public static double[] pairedSd(double[] logRatios, double level) {
        int n = logRatios.length;
        if (n < 3) {
            return null;
        }
        double sd = Math.sqrt(Descriptive.variance(logRatios));
        org.apache.commons.statistics.distribution.ChiSquaredDistribution chi =
                org.apache.commons.statistics.distribution.ChiSquaredDistribution.of(n - 1);
        double tail = (1 - level) / 2;
        double low = sd * Math.sqrt((n - 1) / chi.inverseCumulativeProbability(1 - tail));
        double high = sd * Math.sqrt((n - 1) / chi.inverseCumulativeProbability(tail));
        return new double[] {sd, low, high};
    }
}
