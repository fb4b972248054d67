package dev.restbench.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * A single new run judged against the history of comparable runs: is it where the past runs say the next one
 * should be? On the log scale the past values x₁…xₙ give mean m and sd s, and a new value from the same
 * distribution satisfies (ln y − m) / (s √(1 + 1/n)) ~ t_{n−1} — the prediction interval, which (unlike the
 * confidence interval of the mean) includes the new run's own noise. The p-value is the two-sided tail of that t.
 *
 * <p>Below {@link #MIN_HISTORY} past runs there is no verdict, not an exception: with few runs s is so uncertain
 * that the interval either misses real shifts or raises false alarms (the history band of today's rule gave 6–20 %
 * false alarms per series from 4 runs).
 */
public final class PredictionInterval {

    /** The fewest comparable past runs that give a verdict. */
    public static final int MIN_HISTORY = 10;

    private PredictionInterval() {
    }

    public enum Status {
        JUDGED,
        /** Fewer than {@link #MIN_HISTORY} past runs: show the number, give no verdict. */
        TOO_LITTLE_HISTORY
    }

    /**
     * @param center        geometric mean of the history
     * @param interval      where a new comparable run falls with probability level (unbounded without a verdict)
     * @param pValue        two-sided p-value of the new value (1 without a verdict)
     * @param deviationPct  (value / center − 1) × 100
     */
    public record Judgement(int history, double value, double center, Interval interval, double pValue,
                            double deviationPct, Status status) {

        /** Judged and outside the interval: p-value below 1 − level (the same test, without rounding at the edges). */
        public boolean outside() {
            return status == Status.JUDGED && pValue < 1 - interval.level();
        }
    }

    /**
     * @param history comparable past runs' values (positive), any order
     * @param value   the new run's value (positive)
     * @param level   e.g. 0.95
     */
    public static Judgement judge(double[] history, double value, double level) {
        return judge(history, value, level, 1);
    }

    /**
     * As {@link #judge(double[], double, double)}, for a new value noisier than a past run's by a known bound: its
     * variance at most {@code varianceRatio} times a past value's. A run's value is the mean of its starts; one that
     * measured k starts where the past runs measured K (the budget left the others out) has variance σ²_run + σ²_start
     * / k ≤ (K / k) (σ²_run + σ²_start / K), so K / k bounds it without knowing the components, and the interval
     * widens to s √(K/k + 1/n) rather than flag a run for the starts it did not get. It covers noise, not a shift:
     * starts left out are the last rounds', so an effect of a round's position would move the value itself.
     *
     * @param varianceRatio at least 1 (1: the new value is like a past one)
     */
    public static Judgement judge(double[] history, double value, double level, double varianceRatio) {
        if (!(varianceRatio >= 1)) {
            throw new IllegalArgumentException("variance ratio must be at least 1: " + varianceRatio);
        }
        Descriptive.requirePositive(new double[] {value});
        int n = history.length;
        if (n < MIN_HISTORY) {
            double center = n == 0 ? value : Descriptive.geometricMean(history);
            return new Judgement(n, value, center, Interval.unboundedRatio(level), 1,
                    (value / center - 1) * 100, Status.TOO_LITTLE_HISTORY);
        }
        double[] logs = Descriptive.logs(history);
        double mean = Descriptive.mean(logs);
        double scale = Descriptive.sd(logs) * Math.sqrt(varianceRatio + 1.0 / n);
        double center = Math.exp(mean);
        double deviation = Math.log(value) - mean;
        double p;
        double halfWidth;
        if (scale == 0) {
            // A history without any spread: anything else is outside, the same value is not.
            p = deviation == 0 ? 1 : 0;
            halfWidth = 0;
        } else {
            TDistribution t = TDistribution.of(n - 1);
            p = Math.min(1, 2 * t.survivalProbability(Math.abs(deviation) / scale));
            halfWidth = t.inverseSurvivalProbability((1 - level) / 2) * scale;
        }
        return new Judgement(n, value, center,
                new Interval(Math.exp(mean - halfWidth), Math.exp(mean + halfWidth), level), p,
                (value / center - 1) * 100, Status.JUDGED);
    }
}
