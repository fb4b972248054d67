package dev.restbench.runner.analysis;

/**
 * One series (variant × scenario × regime × metric), head against base: both sides' values, the change as a ratio
 * with its interval, the test behind the verdict and the verdict itself with a reason in words.
 *
 * @param base          the base side's value (null when it has none: failed cell, missing metric)
 * @param head          the head side's value (null likewise)
 * @param changePct     (ratio − 1) × 100, head against base; null when it cannot be computed
 * @param lowPct        lower end of the change's confidence (A/B) or prediction (history) interval, in %
 * @param highPct       upper end of that interval, in %
 * @param pValue        the test's p-value before correction: one-sided for the direction of the change (A/B), or
 *                      two-sided (history); null without a test
 * @param adjustedP     after Holm (primary series) or Benjamini–Hochberg (secondary); null without a test
 * @param detectablePct the smallest change this comparison could have detected (80 % power), in %; null when
 *                      unknown
 * @param n             the test's sample size: A/B blocks, or comparable past runs
 */
public record SeriesVerdict(String variant, String scenario, String regime, String metric, String unit,
                            Direction direction, boolean primary, Side base, Side head, Double changePct,
                            Double lowPct, Double highPct, Double pValue, Double adjustedP, Double detectablePct,
                            int n, boolean steady, Verdict verdict, String reason) {

    /**
     * One side's figure: the value (geometric mean over its starts), how many starts and windows it rests on, and
     * the spread (max − min) / value of its starts in %.
     */
    public record Side(double value, int starts, int windows, Double spreadPct) {
    }

    public String seriesKey() {
        return variant + "/" + scenario + "/" + regime + "/" + metric;
    }

    public String cellKey() {
        return variant + "/" + scenario + "/" + regime;
    }

    /** The same figures, untested: no p-value, so {@link Judgement#decide} leaves its verdict as it is. */
    SeriesVerdict untested(Verdict newVerdict, String newReason) {
        return new SeriesVerdict(variant, scenario, regime, metric, unit, direction, primary, base, head, changePct,
                lowPct, highPct, null, null, detectablePct, n, steady, newVerdict, newReason);
    }

    SeriesVerdict with(Double adjusted, Verdict newVerdict, String newReason) {
        return new SeriesVerdict(variant, scenario, regime, metric, unit, direction, primary, base, head, changePct,
                lowPct, highPct, pValue, adjusted, detectablePct, n, steady, newVerdict, newReason);
    }
}
