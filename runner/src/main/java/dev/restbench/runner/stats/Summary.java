package dev.restbench.runner.stats;

import java.util.Arrays;
import java.util.Collection;

/**
 * A metric's values over the starts of a cell (each a start's own value), as run.json, the history and the tables
 * print it. {@code value} is the geometric mean — the center the confidence intervals and the A/B ratios are about —
 * or the arithmetic mean when a value is 0 (an idle pool, no GC pause), where a geometric mean says nothing.
 * {@code spreadPct} is the full range relative to it: (max − min) / |value| × 100.
 */
public record Summary(int n, double value, double median, double min, double max, double spreadPct) {

    public static Summary of(double[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        double value = center(values);
        double min = Arrays.stream(values).min().orElseThrow();
        double max = Arrays.stream(values).max().orElseThrow();
        double spread = value == 0 ? (max == min ? 0 : Double.NaN) : (max - min) / Math.abs(value) * 100;
        return new Summary(values.length, value, Descriptive.median(values), min, max, spread);
    }

    public static Summary of(Collection<? extends Number> values) {
        return of(values.stream().mapToDouble(Number::doubleValue).toArray());
    }

    /** The geometric mean of positive values, else the arithmetic mean. */
    public static double center(double[] values) {
        for (double v : values) {
            if (!(v > 0)) {
                return Descriptive.mean(values);
            }
        }
        return Descriptive.geometricMean(values);
    }
}
