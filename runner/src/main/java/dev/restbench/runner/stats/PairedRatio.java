package dev.restbench.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.BinomialTest;
import org.apache.commons.statistics.inference.TTest;
import org.apache.commons.statistics.inference.WilcoxonSignedRankTest;

import java.util.Arrays;

/**
 * Head versus base from A/B blocks: each block is one base service start and one head start run back to back (in
 * random order), so whatever drifts slowly on the machine (other jobs, thermal state) hits both halves of a block
 * alike. The analysis is paired and on the log scale: d_b = ln(head_b / base_b). Pairing removes the between-block
 * drift from the comparison; logs make the noise of positive metrics symmetric and the effect a ratio (Georges et
 * al. 2007 for intervals over independent starts; Kalibera & Jones 2013 for ratios of means with intervals).
 *
 * <p>The verdict should use {@link #tTest}: with 2–6 blocks the Wilcoxon signed-rank test behind the
 * Hodges–Lehmann interval cannot reach the usual levels at all (its smallest two-sided p-value is 2 / 2ⁿ: 0.0625
 * with 5 blocks, 0.031 with 6, and Holm's α/m for m = 4 primary metrics needs n ≥ 8), and where it can, its
 * interval is bounded by the most extreme blocks. {@link #hodgesLehmann} is a robustness check from about 8 blocks.
 */
public final class PairedRatio {

    private PairedRatio() {
    }

    public enum Status {
        /** At least two blocks with some spread: p-value, interval and detectable change are real. */
        ESTIMATED,
        /**
         * At least two blocks, all log ratios identical (a discrete metric, e.g. a connection count): the t-test has
         * no variance to work with, so the p-value is the exact sign test's, {@link #noSpreadPValue}.
         */
        NO_SPREAD,
        /** Fewer blocks than the method needs: p = 1, the interval unbounded, nothing detectable. */
        TOO_FEW_BLOCKS
    }

    /**
     * @param ratio                geometric mean of head/base over the blocks, exp(mean d)
     * @param pValue               two-sided p-value of the paired t-test of H0: ratio = 1 (1 when not estimable)
     * @param interval             confidence interval of the ratio
     * @param minDetectableChange  the smallest relative change (0.05 = 5 %) this design detects with the requested
     *                             power at α = 1 − confidence, given the observed spread; +∞ with fewer than 2 blocks
     * @param sdLog                sample standard deviation of the log ratios (≈ the block-to-block CV of the ratio)
     */
    public record Result(int blocks, double ratio, double pValue, Interval interval, double minDetectableChange,
                         double sdLog, Status status) {

        /** (ratio − 1) × 100. */
        public double changePct() {
            return (ratio - 1) * 100;
        }
    }

    /**
     * @param ratio              exp(median of the Walsh averages of d)
     * @param interval           the distribution-free interval of the ratio from the signed-rank distribution; its
     *                           level is the one actually achieved (at least the requested one), unbounded when the
     *                           blocks are too few to reach the requested level
     * @param pValue             two-sided Wilcoxon signed-rank p-value (Commons Statistics' exact or asymptotic)
     */
    public record HodgesLehmann(int blocks, double ratio, Interval interval, double pValue, Status status) {
    }

    /**
     * Paired t-test on the log ratios (Commons Statistics' one-sample {@link TTest} of mean d = 0). The interval is
     * exp(mean d ± t_{1−α/2, n−1} · s/√n). The minimum detectable change is exp(δ) − 1 with
     * δ = (t_{1−α/2, n−1} + t_{power, n−1}) · s / √n, the usual central-t approximation of the paired test's power
     * (it ignores the non-centrality's skew, which is small at power ≥ 0.8; checked by {@link PowerSimulation} in
     * the tests).
     *
     * @param base        per block, the base start's value (the geometric mean of its windows); > 0
     * @param head        per block, the head start's value, same order; > 0
     * @param confidence  e.g. 0.95; the test's α is 1 − confidence
     * @param power       e.g. 0.8, for the minimum detectable change
     */
    public static Result tTest(double[] base, double[] head, double confidence, double power) {
        double[] d = logRatios(base, head);
        int n = d.length;
        if (n < 2) {
            return new Result(n, n == 1 ? Math.exp(d[0]) : 1, 1, Interval.unboundedRatio(confidence),
                    Double.POSITIVE_INFINITY, 0, Status.TOO_FEW_BLOCKS);
        }
        double mean = Descriptive.mean(d);
        double sd = Descriptive.sd(d);
        if (sd == 0) {
            double ratio = Math.exp(mean);
            return new Result(n, ratio, pValue(d), new Interval(ratio, ratio, confidence), 0, 0, Status.NO_SPREAD);
        }
        return new Result(n, Math.exp(mean), pValue(d), Interval.ofLogMean(d, confidence),
                minDetectableChange(sd, n, 1 - confidence, power), sd, Status.ESTIMATED);
    }

    /**
     * The p-value of {@link #tTest} alone, from the log ratios: the one-sample t-test of mean d = 0, which is the
     * paired t-test (Commons Statistics). 1 for fewer than 2 blocks; without spread {@link #noSpreadPValue}.
     */
    static double pValue(double[] d) {
        if (d.length < 2) {
            return 1;
        }
        if (Descriptive.sd(d) == 0) {
            return noSpreadPValue(d);
        }
        return TTest.withDefaults().test(d).getPValue();
    }

    /**
     * Identical log ratios in every block: 1 when they are 0, else the two-sided exact sign test's p-value (Commons
     * Statistics' binomial test of n heads in n at ½: 2^(1−n)). A zero variance makes the t statistic infinite and its
     * p-value 0, which would let two blocks of a discrete metric (1.41 → 1.00 connections twice) pass any correction;
     * the sign test asks only how likely it is that every block moves the same way, which two blocks do half the time.
     */
    static double noSpreadPValue(double[] d) {
        if (d[0] == 0) {
            return 1;
        }
        return BinomialTest.withDefaults().test(d.length, d.length, 0.5).getPValue();
    }

    /**
     * The smallest relative change a paired test on n blocks with log-ratio spread sdLog detects with the given power
     * at two-sided level alpha: exp((t_{1−α/2, n−1} + t_{power, n−1}) · sdLog / √n) − 1; +∞ for n < 2.
     */
    public static double minDetectableChange(double sdLog, int n, double alpha, double power) {
        if (n < 2) {
            return Double.POSITIVE_INFINITY;
        }
        TDistribution t = TDistribution.of(n - 1);
        double delta = (t.inverseSurvivalProbability(alpha / 2) + t.inverseCumulativeProbability(power))
                * sdLog / Math.sqrt(n);
        return Math.exp(delta) - 1;
    }

    /**
     * Hodges–Lehmann estimate of the ratio with its distribution-free interval (Hollander & Wolfe, ch. 3): the
     * median of the n(n+1)/2 Walsh averages (d_i + d_j)/2, i ≤ j, and the interval between the (c+1)-th smallest
     * and (c+1)-th largest of them, c the largest count with P(W⁺ ≤ c) ≤ α/2 under the exact null distribution of
     * the signed-rank statistic W⁺. Commons Statistics tests the signed-rank hypothesis but does not expose that
     * distribution's quantiles, so {@link #signedRankLowerTail} computes it (and the tests check it against the
     * library's exact p-values).
     */
    public static HodgesLehmann hodgesLehmann(double[] base, double[] head, double confidence) {
        double[] d = logRatios(base, head);
        int n = d.length;
        if (n < 2) {
            return new HodgesLehmann(n, n == 1 ? Math.exp(d[0]) : 1, Interval.unboundedRatio(confidence), 1,
                    Status.TOO_FEW_BLOCKS);
        }
        double[] walsh = walshAverages(d);
        double ratio = Math.exp(Descriptive.median(walsh));
        if (Arrays.stream(d).allMatch(x -> x == d[0])) {
            return new HodgesLehmann(n, ratio, new Interval(ratio, ratio, confidence), noSpreadPValue(d),
                    Status.NO_SPREAD);
        }
        double p = WilcoxonSignedRankTest.withDefaults().test(d).getPValue();
        double[] lowerTail = signedRankLowerTail(n);
        double alpha = 1 - confidence;
        if (lowerTail[0] > alpha / 2) {
            // Even the widest interval [min, max] of the Walsh averages misses the requested level.
            return new HodgesLehmann(n, ratio, Interval.unboundedRatio(confidence), p, Status.TOO_FEW_BLOCKS);
        }
        int c = 0;
        while (c + 1 < lowerTail.length && lowerTail[c + 1] <= alpha / 2) {
            c++;
        }
        Arrays.sort(walsh);
        Interval interval = new Interval(Math.exp(walsh[c]), Math.exp(walsh[walsh.length - 1 - c]),
                1 - 2 * lowerTail[c]);
        return new HodgesLehmann(n, ratio, interval, p, Status.ESTIMATED);
    }

    /**
     * P(W⁺ ≤ w) for w = 0 … n(n+1)/2 under H0 without ties: W⁺ is the sum of a uniformly random subset of the
     * ranks 1 … n, so its distribution follows from adding one rank at a time (each in or out with probability ½).
     */
    static double[] signedRankLowerTail(int n) {
        int max = n * (n + 1) / 2;
        double[] probability = new double[max + 1];
        probability[0] = 1;
        for (int rank = 1; rank <= n; rank++) {
            for (int w = max; w >= 0; w--) {
                probability[w] = (probability[w] + (w >= rank ? probability[w - rank] : 0)) / 2;
            }
        }
        double[] cumulative = new double[max + 1];
        double sum = 0;
        for (int w = 0; w <= max; w++) {
            sum += probability[w];
            cumulative[w] = sum;
        }
        return cumulative;
    }

    static double[] walshAverages(double[] d) {
        double[] walsh = new double[d.length * (d.length + 1) / 2];
        int k = 0;
        for (int i = 0; i < d.length; i++) {
            for (int j = i; j < d.length; j++) {
                walsh[k++] = (d[i] + d[j]) / 2;
            }
        }
        return walsh;
    }

    /** ln(head_b / base_b) per block; no blocks give an empty array. */
    public static double[] logRatios(double[] base, double[] head) {
        if (base.length != head.length) {
            throw new IllegalArgumentException("blocks need a base and a head value each: " + base.length
                    + " base, " + head.length + " head");
        }
        if (base.length == 0) {
            return new double[0];
        }
        Descriptive.requirePositive(base);
        Descriptive.requirePositive(head);
        double[] d = new double[base.length];
        for (int b = 0; b < d.length; b++) {
            d[b] = Math.log(head[b] / base[b]);
        }
        return d;
    }
}
