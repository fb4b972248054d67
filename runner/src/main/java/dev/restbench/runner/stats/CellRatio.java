package dev.restbench.runner.stats;

import org.apache.commons.statistics.distribution.TDistribution;

/**
 * The ratio of two cells' values (one variant against another, same scenario, regime and metric: "Spring MVC needs
 * 2.1× Jersey's CPU per request") with a confidence interval. The two cells come from different service starts, so
 * they are not paired: the interval is Welch's on the log values (the difference of two log means, Welch–Satterthwaite
 * degrees of freedom), over the start values when both cells have at least two starts — the starts are the
 * independent replications ({@link CellEstimate}) — else, flagged, over the windows of their single start, which
 * leaves out the variance between JVM starts; with a single window on either side there is no interval.
 */
public final class CellRatio {

    private CellRatio() {
    }

    /** @param ratio value(a) / value(b), each the geometric mean of its starts' geometric means */
    public record Estimate(double ratio, Interval interval, CellEstimate.Coverage coverage) {
    }

    /** @param a per start, its windows' values (positive); likewise {@code b} */
    public static Estimate of(double[][] a, double[][] b, double confidence) {
        double ratio = CellEstimate.of(a, confidence).value() / CellEstimate.of(b, confidence).value();
        if (a.length >= 2 && b.length >= 2) {
            return new Estimate(ratio, welch(startLogs(a), startLogs(b), confidence),
                    CellEstimate.Coverage.BETWEEN_STARTS);
        }
        if (a.length == 1 && b.length == 1 && a[0].length >= 2 && b[0].length >= 2) {
            return new Estimate(ratio, welch(Descriptive.logs(a[0]), Descriptive.logs(b[0]), confidence),
                    CellEstimate.Coverage.WITHIN_ONE_START_ONLY);
        }
        return new Estimate(ratio, Interval.unboundedRatio(confidence), CellEstimate.Coverage.NONE);
    }

    private static double[] startLogs(double[][] trials) {
        double[] logs = new double[trials.length];
        for (int t = 0; t < trials.length; t++) {
            logs[t] = Math.log(CellEstimate.startValue(trials[t]));
        }
        return logs;
    }

    /** exp(mean(a) − mean(b) ± t · √(s²a/na + s²b/nb)), Welch–Satterthwaite df. */
    static Interval welch(double[] logA, double[] logB, double confidence) {
        double va = Descriptive.variance(logA) / logA.length;
        double vb = Descriptive.variance(logB) / logB.length;
        double diff = Descriptive.mean(logA) - Descriptive.mean(logB);
        double se = Math.sqrt(va + vb);
        if (se == 0) {
            return new Interval(Math.exp(diff), Math.exp(diff), confidence);
        }
        double df = (va + vb) * (va + vb)
                / (va * va / (logA.length - 1) + vb * vb / (logB.length - 1));
        double t = TDistribution.of(df).inverseSurvivalProbability((1 - confidence) / 2);
        return new Interval(Math.exp(diff - t * se), Math.exp(diff + t * se), confidence);
    }
}
