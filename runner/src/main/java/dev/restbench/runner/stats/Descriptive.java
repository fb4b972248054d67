package dev.restbench.runner.stats;

import org.apache.commons.statistics.descriptive.GeometricMean;
import org.apache.commons.statistics.descriptive.Mean;
import org.apache.commons.statistics.descriptive.Median;
import org.apache.commons.statistics.descriptive.Quantile;
import org.apache.commons.statistics.descriptive.StandardDeviation;
import org.apache.commons.statistics.descriptive.Variance;

/**
 * The one implementation of descriptive statistics in the runner, delegating to Apache Commons Statistics
 * (descriptive). Every method rejects an empty sample (there is no honest median of nothing) and leaves its
 * argument untouched.
 *
 * <p>Benchmark metrics are ratios of positive quantities (µs per request, requests per second), whose noise is
 * multiplicative, so the comparisons of this package work on logarithms and summarise with the geometric mean
 * (Fleming & Wallace 1986; Georges et al. 2007 for confidence intervals over run means).
 */
public final class Descriptive {

    /** Makes the MAD a consistent estimator of the standard deviation for normal data (1 / Φ⁻¹(3/4)). */
    public static final double MAD_TO_SIGMA = 1.482602218505602;

    // withCopy: the library's default partially sorts the caller's array in place, which silently reordered a
    // fixture's per-round values (Summary.of) and so broke their pairing by round.
    private static final Median MEDIAN = Median.withDefaults().withCopy(true);
    private static final Quantile QUANTILE = Quantile.withDefaults().withCopy(true);

    private Descriptive() {
    }

    public static double mean(double[] values) {
        requireValues(values);
        return Mean.of(values).getAsDouble();
    }

    public static double median(double[] values) {
        requireValues(values);
        return MEDIAN.evaluate(values);
    }

    /**
     * The p-quantile, Hyndman & Fan's definition 8 (the library's default: approximately median-unbiased whatever
     * the distribution; R's default is definition 7, so R's quantile() differs slightly on small samples).
     */
    public static double quantile(double[] values, double p) {
        requireValues(values);
        return QUANTILE.evaluate(values, p);
    }

    /** Unbiased sample variance (n − 1 in the denominator); 0 for a single value. */
    public static double variance(double[] values) {
        requireValues(values);
        return Variance.of(values).getAsDouble();
    }

    /** Sample standard deviation (n − 1); 0 for a single value. */
    public static double sd(double[] values) {
        requireValues(values);
        return StandardDeviation.of(values).getAsDouble();
    }

    /** Robust standard deviation: 1.4826 × the median absolute deviation from the median. */
    public static double madScale(double[] values) {
        double median = median(values);
        double[] deviations = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            deviations[i] = Math.abs(values[i] - median);
        }
        return MAD_TO_SIGMA * MEDIAN.evaluate(deviations);
    }

    /** exp(mean(ln x)); the values must be positive. */
    public static double geometricMean(double[] values) {
        requirePositive(values);
        return GeometricMean.of(values).getAsDouble();
    }

    /** ln of each value; the values must be positive. */
    public static double[] logs(double[] values) {
        requirePositive(values);
        double[] logs = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            logs[i] = Math.log(values[i]);
        }
        return logs;
    }

    static void requireValues(double[] values) {
        if (values == null || values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        for (double value : values) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("not a finite value: " + value);
            }
        }
    }

    static void requirePositive(double[] values) {
        requireValues(values);
        for (double value : values) {
            if (value <= 0) {
                throw new IllegalArgumentException("a ratio needs positive values, got " + value);
            }
        }
    }
}
