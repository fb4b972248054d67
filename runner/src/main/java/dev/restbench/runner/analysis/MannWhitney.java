package dev.restbench.runner.analysis;

import java.util.Arrays;

/**
 * Two-sided Mann-Whitney U test (Wilcoxon rank-sum). Benchmark repetitions are few (3-10) and not normal, so the
 * p-value is exact: the rank-sum of every way to choose the first sample's positions among the pooled ranks is
 * enumerated (mid-ranks for ties, so ties are handled exactly too). Above {@link #EXACT_LIMIT} arrangements the
 * normal approximation with tie correction is used.
 */
public final class MannWhitney {

    static final long EXACT_LIMIT = 250_000;

    private MannWhitney() {
    }

    /** The p-value of the test that a and b come from the same distribution, against "shifted either way". */
    public static double pValue(double[] a, double[] b) {
        if (a.length == 0 || b.length == 0) {
            throw new IllegalArgumentException("both samples need values");
        }
        double[] ranks = midRanks(a, b);
        int n = ranks.length;
        double observed = rankSum(ranks, a.length);
        double expected = a.length * (n + 1) / 2.0;
        double observedDistance = Math.abs(observed - expected);
        if (binomial(n, a.length) <= EXACT_LIMIT) {
            return exactPValue(ranks, a.length, expected, observedDistance);
        }
        return normalPValue(ranks, a.length, b.length, observedDistance);
    }

    /** The smallest p-value the exact test can give for these sample sizes (complete separation, no ties). */
    public static double smallestPossiblePValue(int n1, int n2) {
        return Math.min(1.0, 2.0 / binomial(n1 + n2, n1));
    }

    /** Ranks of a followed by b in the pooled sample; the first a.length entries are a's ranks. */
    private static double[] midRanks(double[] a, double[] b) {
        int n = a.length + b.length;
        double[] pooled = new double[n];
        System.arraycopy(a, 0, pooled, 0, a.length);
        System.arraycopy(b, 0, pooled, a.length, b.length);
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Double.compare(pooled[x], pooled[y]));
        double[] ranks = new double[n];
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && pooled[order[j + 1]] == pooled[order[i]]) {
                j++;
            }
            double midRank = (i + j) / 2.0 + 1;
            for (int k = i; k <= j; k++) {
                ranks[order[k]] = midRank;
            }
            i = j + 1;
        }
        return ranks;
    }

    private static double rankSum(double[] ranks, int count) {
        double sum = 0;
        for (int i = 0; i < count; i++) {
            sum += ranks[i];
        }
        return sum;
    }

    private static double exactPValue(double[] ranks, int k, double expected, double observedDistance) {
        long[] atLeastAsExtreme = {0};
        long[] total = {0};
        // Small tolerance: mid-ranks are multiples of 0.5, sums are exact in double, but be safe.
        double threshold = observedDistance - 1e-9;
        enumerate(ranks, k, 0, 0, 0.0, expected, threshold, atLeastAsExtreme, total);
        return (double) atLeastAsExtreme[0] / total[0];
    }

    private static void enumerate(double[] ranks, int k, int start, int chosen, double sum, double expected,
                                  double threshold, long[] extreme, long[] total) {
        if (chosen == k) {
            total[0]++;
            if (Math.abs(sum - expected) >= threshold) {
                extreme[0]++;
            }
            return;
        }
        for (int i = start; i <= ranks.length - (k - chosen); i++) {
            enumerate(ranks, k, i + 1, chosen + 1, sum + ranks[i], expected, threshold, extreme, total);
        }
    }

    private static double normalPValue(double[] ranks, int n1, int n2, double observedDistance) {
        int n = n1 + n2;
        // Tie correction: sum over tie groups of (t^3 - t).
        double[] sorted = ranks.clone();
        Arrays.sort(sorted);
        double tieTerm = 0;
        int i = 0;
        while (i < n) {
            int j = i;
            while (j + 1 < n && sorted[j + 1] == sorted[i]) {
                j++;
            }
            double t = j - i + 1;
            tieTerm += t * t * t - t;
            i = j + 1;
        }
        double variance = n1 * (double) n2 / 12.0 * ((n + 1) - tieTerm / (n * (double) (n - 1)));
        if (variance <= 0) {
            return 1.0;
        }
        double z = Math.max(0, observedDistance - 0.5) / Math.sqrt(variance);
        return Math.min(1.0, 2 * (1 - StudentT.normalCdf(z)));
    }

    static double binomial(int n, int k) {
        double result = 1;
        for (int i = 1; i <= k; i++) {
            result = result * (n - k + i) / i;
        }
        return Math.round(result);
    }
}
