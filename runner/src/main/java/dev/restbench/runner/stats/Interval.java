package dev.restbench.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A two-sided interval [low, high] of a positive quantity (a ratio, a geometric mean) at a confidence or
 * prediction level. {@link #unboundedRatio} is the honest answer when the data cannot bound it (fewer than two
 * blocks): every positive value is compatible with them.
 */
public record Interval(double low, double high, double level) {

    public static Interval unboundedRatio(double level) {
        return new Interval(0, Double.POSITIVE_INFINITY, level);
    }

    /**
     * The t interval of a geometric mean from log values (n ≥ 2): exp(mean ± t_{1−α/2, n−1} · sd / √n),
     * α = 1 − confidence.
     */
    static Interval ofLogMean(double[] logs, double confidence) {
        int n = logs.length;
        double halfWidth = TDistribution.of(n - 1).inverseSurvivalProbability((1 - confidence) / 2)
                * Descriptive.sd(logs) / Math.sqrt(n);
        double mean = Descriptive.mean(logs);
        return new Interval(Math.exp(mean - halfWidth), Math.exp(mean + halfWidth), confidence);
    }

    public boolean contains(double value) {
        return value >= low && value <= high;
    }

    /** False for {@link #unboundedRatio}: the data bounded nothing. */
    public boolean isBounded() {
        return Double.isFinite(low) && Double.isFinite(high) && low > 0;
    }
}
