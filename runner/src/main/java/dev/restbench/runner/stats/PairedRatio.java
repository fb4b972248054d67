package dev.restbench.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;
import org.apache.commons.statistics.inference.BinomialTest;
import org.apache.commons.statistics.inference.TTest;

import java.util.SplittableRandom;

/**
 * Head versus base from A/B blocks: each block is one base service start and one head start run back to back (in
 * random order), so whatever drifts slowly on the machine (other jobs, thermal state) hits both halves of a block
 * alike. The analysis is paired and on the log scale: d_b = ln(head_b / base_b). Pairing removes the between-block
 * drift from the comparison; logs make the noise of positive metrics symmetric and the effect a ratio (Georges et
 * al. 2007 for intervals over independent starts; Kalibera & Jones 2013 for ratios of means with intervals).
 *
 * <p>The test is the t-test, or for a discrete metric the exact sign-flip test ({@link Test}). Not the Wilcoxon
 * signed-rank test with its Hodges–Lehmann interval: with 2–6 blocks it cannot reach the usual levels at all (its
 * smallest one-sided p-value is 1 / 2ⁿ: 0.031 with 5 blocks, 0.016 with 6, and Holm's α/m over 12 primary series
 * needs n ≥ 8), and where it can, its interval is bounded by the most extreme blocks. It was here, unused by any
 * verdict, until 2026-12-07 (review D9: a method the code named but never ran).
 */
public final class PairedRatio {

    private PairedRatio() {
    }

    public enum Status {
        /** At least two blocks with some spread: p-value, interval and detectable change are real. */
        ESTIMATED,
        /**
         * At least two blocks, all log ratios the same within {@link #TIE_TOLERANCE} (a discrete metric, e.g. a
         * connection count, at its resolution): no variance to test against, so the p-values are the exact sign
         * test's, 2^(1−n) two-sided and 2^(−n) one-sided, and there is no interval.
         */
        NO_SPREAD,
        /** Fewer blocks than the method needs: p = 1, the interval unbounded, nothing detectable. */
        TOO_FEW_BLOCKS
    }

    /**
     * Which test gives the p-values. {@link #T}: the paired t-test, for metrics that vary continuously.
     * {@link #SIGN_FLIP}: the exact sign-flip permutation test of the mean log ratio (Fisher's randomization test for
     * paired data), for discrete metrics (benchmarks.json {@code "discrete": true}: whole-millisecond percentiles,
     * peak counts). Under H0 every block's log ratio is as likely to be positive as negative, so all 2ⁿ sign patterns
     * of |d| are equally likely and the p-value is the share of them whose sum is at least as extreme as the
     * observed one. It is exact whatever the metric's lattice or rounding, and its smallest value is the honest
     * 2^(1−n) two-sided (2^(−n) one-sided): no test of n pairs can say more about a metric that moves in steps.
     */
    public enum Test {
        T, SIGN_FLIP
    }

    /**
     * Log ratios that all lie within this of each other are one value: run.json stores each start at 6 significant
     * digits (ResultsWriter), which moves a log ratio by up to ~10⁻⁵, so ratios that are mathematically equal (a pool
     * peak's geometric mean 2^(1/3) on both sides) differ in their last digits and would otherwise make the t-test's
     * variance tiny and its p-value absurd (10⁻⁶ from two rounds). 10⁻⁴ is 0.01 %, far below any metric's minimum
     * effect.
     */
    public static final double TIE_TOLERANCE = 1e-4;

    /** Sign patterns enumerated exactly up to this many blocks (2²⁰ sums); beyond, a fixed-seed random sample. */
    static final int EXACT_SIGN_FLIP_BLOCKS = 20;
    private static final int SIGN_FLIP_SAMPLES = 1 << 20;

    /**
     * @param ratio                geometric mean of head/base over the blocks, exp(mean d)
     * @param pValue               two-sided p-value of H0: ratio = 1 (1 when not estimable)
     * @param pAbove               one-sided p-value of H0 against H1: ratio &gt; 1 (head above base)
     * @param pBelow               one-sided p-value of H0 against H1: ratio &lt; 1
     * @param interval             confidence interval of the ratio (the t interval, also for the sign-flip test: it is
     *                             only shown and used for "no change"); a point without spread
     * @param minDetectableChange  the smallest relative change (0.05 = 5 %) this design detects with the requested
     *                             power at α = 1 − confidence, given the observed spread; +∞ with fewer than 2 blocks
     * @param sdLog                sample standard deviation of the log ratios (≈ the block-to-block CV of the ratio)
     */
    public record Result(int blocks, double ratio, double pValue, double pAbove, double pBelow, Interval interval,
                         double minDetectableChange, double sdLog, Status status) {

        /** (ratio − 1) × 100. */
        public double changePct() {
            return (ratio - 1) * 100;
        }
    }

    /** The p-values of one paired comparison: two-sided, and one-sided for each direction. */
    public record PValues(double twoSided, double above, double below) {

        static final PValues NONE = new PValues(1, 1, 1);
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
        return test(base, head, confidence, power, Test.T);
    }

    /** As {@link #tTest}, with the p-values of the given test; the interval and detectable change are the t's. */
    public static Result test(double[] base, double[] head, double confidence, double power, Test test) {
        double[] d = logRatios(base, head);
        int n = d.length;
        if (n < 2) {
            return new Result(n, n == 1 ? Math.exp(d[0]) : 1, 1, 1, 1, Interval.unboundedRatio(confidence),
                    Double.POSITIVE_INFINITY, 0, Status.TOO_FEW_BLOCKS);
        }
        double mean = Descriptive.mean(d);
        PValues p = pValues(d, test);
        if (tied(d)) {
            double ratio = Math.exp(mean);
            return new Result(n, ratio, p.twoSided(), p.above(), p.below(), new Interval(ratio, ratio, confidence), 0,
                    0, Status.NO_SPREAD);
        }
        double sd = Descriptive.sd(d);
        return new Result(n, Math.exp(mean), p.twoSided(), p.above(), p.below(), Interval.ofLogMean(d, confidence),
                minDetectableChange(sd, n, 1 - confidence, power), sd, Status.ESTIMATED);
    }

    /**
     * The p-value of {@link #tTest} alone, from the log ratios: the one-sample t-test of mean d = 0, which is the
     * paired t-test (Commons Statistics). 1 for fewer than 2 blocks; without spread {@link #noSpread}'s.
     */
    static double pValue(double[] d) {
        return pValues(d, Test.T).twoSided();
    }

    /**
     * The p-values of a paired comparison from its log ratios d: 1 for fewer than 2 blocks; the exact sign test's
     * when all d are tied ({@link #TIE_TOLERANCE}); else the t-test's or the sign-flip test's.
     */
    public static PValues pValues(double[] d, Test test) {
        if (d.length < 2) {
            return PValues.NONE;
        }
        if (tied(d)) {
            return noSpread(d);
        }
        return test == Test.SIGN_FLIP ? signFlip(d) : t(d);
    }

    private static PValues t(double[] d) {
        int n = d.length;
        double t = Descriptive.mean(d) / (Descriptive.sd(d) / Math.sqrt(n));
        TDistribution distribution = TDistribution.of(n - 1);
        return new PValues(TTest.withDefaults().test(d).getPValue(), distribution.survivalProbability(t),
                distribution.cumulativeProbability(t));
    }

    /** All log ratios within {@link #TIE_TOLERANCE} of each other. */
    static boolean tied(double[] d) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double x : d) {
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        return max - min <= TIE_TOLERANCE;
    }

    /**
     * Tied log ratios: 1 when they are 0 (within the tolerance), else the exact sign test's p-values (Commons
     * Statistics' binomial test of n heads in n at ½: 2^(1−n) two-sided, 2^(−n) for the side they moved to). A zero
     * variance makes the t statistic infinite and its p-value 0, which would let two blocks of a discrete metric (1.41
     * → 1.00 connections twice) pass any correction; the sign test asks only how likely it is that every block moves
     * the same way, which two blocks do half the time.
     */
    static PValues noSpread(double[] d) {
        double mean = Descriptive.mean(d);
        if (Math.abs(mean) <= TIE_TOLERANCE) {
            return PValues.NONE;
        }
        double twoSided = BinomialTest.withDefaults().test(d.length, d.length, 0.5).getPValue();
        double oneSided = Math.pow(0.5, d.length);
        return mean > 0 ? new PValues(twoSided, oneSided, 1) : new PValues(twoSided, 1, oneSided);
    }

    /**
     * The exact sign-flip permutation test of the mean log ratio: with S = Σ d_i and S* = Σ ε_i |d_i| over the 2ⁿ
     * equally likely sign vectors ε, p_above = P(S* ≥ S), p_below = P(S* ≤ S), two-sided P(|S*| ≥ |S|), counting
     * sums equal within a rounding tolerance as equal. Enumerated in Gray-code order (one sign changes per step) up
     * to {@link #EXACT_SIGN_FLIP_BLOCKS} blocks; beyond, 2²⁰ random sign vectors from a fixed seed with the observed
     * one counted in, (1 + k) / (1 + B), which keeps the test valid.
     */
    static PValues signFlip(double[] d) {
        int n = d.length;
        double[] magnitude = new double[n];
        double observed = 0;
        double scale = 0;
        for (int i = 0; i < n; i++) {
            magnitude[i] = Math.abs(d[i]);
            observed += d[i];
            scale += magnitude[i];
        }
        double eps = 1e-9 * Math.max(scale, Double.MIN_NORMAL);
        long atLeast = 0;
        long atMost = 0;
        long extreme = 0;
        long total;
        if (n <= EXACT_SIGN_FLIP_BLOCKS) {
            total = 1L << n;
            boolean[] negative = new boolean[n];
            double sum = scale;
            for (long k = 0; k < total; k++) {
                if (k > 0) {
                    int flip = Long.numberOfTrailingZeros(k);
                    sum += negative[flip] ? 2 * magnitude[flip] : -2 * magnitude[flip];
                    negative[flip] = !negative[flip];
                }
                atLeast += sum >= observed - eps ? 1 : 0;
                atMost += sum <= observed + eps ? 1 : 0;
                extreme += Math.abs(sum) >= Math.abs(observed) - eps ? 1 : 0;
            }
        } else {
            SplittableRandom random = new SplittableRandom(20261125L);
            total = SIGN_FLIP_SAMPLES + 1L;
            atLeast = atMost = extreme = 1;
            for (int b = 0; b < SIGN_FLIP_SAMPLES; b++) {
                double sum = 0;
                for (int i = 0; i < n; i++) {
                    sum += random.nextBoolean() ? magnitude[i] : -magnitude[i];
                }
                atLeast += sum >= observed - eps ? 1 : 0;
                atMost += sum <= observed + eps ? 1 : 0;
                extreme += Math.abs(sum) >= Math.abs(observed) - eps ? 1 : 0;
            }
        }
        return new PValues((double) extreme / total, (double) atLeast / total, (double) atMost / total);
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
