package dev.restbench.runner.analysis;

import java.util.Arrays;
import java.util.Collection;

/**
 * The one implementation of the descriptive statistics used everywhere in the runner: run.json summaries
 * (median, min, max, spreadPct), comparisons and change points all call these methods, so a number shown in
 * run.json, the PR comment and the site is always computed the same way.
 *
 * <p>spreadPct is the full range relative to the median: (max - min) / |median| x 100. It is what the reports
 * print as "median ± spread"; the verdicts use the robust scale {@link #madScale} instead.
 */
public final class Stats {

    /** Makes the MAD a consistent estimator of the standard deviation for normal data. */
    public static final double MAD_TO_SIGMA = 1.4826;

    private Stats() {
    }

    /** Summary of one sample as written to run.json. */
    public record Summary(int n, double median, double min, double max, double spreadPct) {
    }

    public static Summary summarize(double[] values) {
        requireValues(values);
        double median = median(values);
        double min = Arrays.stream(values).min().orElseThrow();
        double max = Arrays.stream(values).max().orElseThrow();
        return new Summary(values.length, median, min, max, spreadPct(min, max, median));
    }

    public static double median(double[] values) {
        requireValues(values);
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }

    public static double mean(double[] values) {
        requireValues(values);
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    /** Unbiased sample variance (n - 1 in the denominator); 0 for a single value. */
    public static double variance(double[] values) {
        requireValues(values);
        if (values.length < 2) {
            return 0;
        }
        double mean = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - mean) * (v - mean);
        }
        return sum / (values.length - 1);
    }

    /** Median absolute deviation from the median (not scaled). */
    public static double mad(double[] values) {
        double median = median(values);
        double[] deviations = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            deviations[i] = Math.abs(values[i] - median);
        }
        return median(deviations);
    }

    /** Robust standard deviation: 1.4826 x MAD. */
    public static double madScale(double[] values) {
        return MAD_TO_SIGMA * mad(values);
    }

    /** (max - min) / |median| x 100; 0 when the median is 0 and all values are equal, NaN otherwise. */
    public static double spreadPct(double min, double max, double median) {
        if (median == 0) {
            return max == min ? 0 : Double.NaN;
        }
        return (max - min) / Math.abs(median) * 100.0;
    }

    public static double[] toArray(Collection<? extends Number> values) {
        return values.stream().mapToDouble(Number::doubleValue).toArray();
    }

    private static void requireValues(double[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
    }
}
