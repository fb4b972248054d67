package dev.restbench.runner.stats;

/**
 * One cell's value (one variant × scenario × regime × metric) from its starts × windows, with a confidence interval
 * that says how well the design pinned it down. Each start's value is the geometric mean of its windows; the cell
 * is the geometric mean of the start values. The interval is taken over the start values, t with starts − 1
 * degrees of freedom: the starts are the independent replications (Georges et al. 2007; Kalibera & Jones 2013),
 * the windows of one start are not, since they share that start's JIT decisions. With one start only a
 * within-start interval over its windows is possible, and it is flagged: it does not cover the between-start
 * variance, which on this box is the larger one.
 */
public final class CellEstimate {

    private CellEstimate() {
    }

    public enum Coverage {
        /** Interval over the start values: covers between-start and within-start noise. */
        BETWEEN_STARTS,
        /** One start: interval over its windows only; the variation between JVM starts is not in it. */
        WITHIN_ONE_START_ONLY,
        /** One start with one window: no interval at all (unbounded). */
        NONE
    }

    /**
     * @param value     geometric mean of the per-start geometric means
     * @param interval  confidence interval of value
     */
    public record Estimate(int starts, int windows, double value, Interval interval, Coverage coverage) {
    }

    /** A start's value: the geometric mean of its windows (the unit the paired A/B blocks compare). */
    public static double startValue(double[] windows) {
        return Descriptive.geometricMean(windows);
    }

    /** @param trials per start, its windows' values (positive) */
    public static Estimate of(double[][] trials, double confidence) {
        if (trials.length == 0) {
            throw new IllegalArgumentException("no starts");
        }
        int windows = 0;
        double[] startLogs = new double[trials.length];
        for (int t = 0; t < trials.length; t++) {
            startLogs[t] = Math.log(startValue(trials[t]));
            windows += trials[t].length;
        }
        if (trials.length >= 2) {
            return new Estimate(trials.length, windows, Math.exp(Descriptive.mean(startLogs)),
                    Interval.ofLogMean(startLogs, confidence), Coverage.BETWEEN_STARTS);
        }
        double value = Math.exp(startLogs[0]);
        if (windows == 1) {
            return new Estimate(1, 1, value, Interval.unboundedRatio(confidence), Coverage.NONE);
        }
        return new Estimate(1, windows, value, Interval.ofLogMean(Descriptive.logs(trials[0]), confidence),
                Coverage.WITHIN_ONE_START_ONLY);
    }
}
