package dev.restbench.runner.analysis;

/**
 * Decides regression / improvement / within-noise / inconclusive for one metric from the repetitions of a base
 * and a head run. See docs/verdicts.md for the reasoning; in short, a change is flagged only when BOTH hold:
 * <ol>
 *   <li>the exact two-sided Mann-Whitney U test rejects "same distribution" at {@link #ALPHA}, and</li>
 *   <li>the difference of medians is larger than the noise band: the largest of a minimum effect size, 3.5
 *       standard errors of the median difference estimated from the repetitions themselves (the larger of the
 *       pooled standard deviation and the pooled MAD scale), and 3.5 robust standard deviations of the series'
 *       recent history of run medians (when known).</li>
 * </ol>
 * Sizes for which the exact test cannot reach {@link #ALPHA} (e.g. 3 vs 3, or single runs) are judged by the
 * noise band alone when the series' history gives its run-to-run noise, and are "inconclusive" otherwise.
 */
public final class VerdictRule {

    public static final double ALPHA = 0.05;
    public static final double MIN_EFFECT_PCT = 2.0;
    /** A band wider than this cannot tell a real change from noise: such comparisons are inconclusive. */
    public static final double MAX_BAND_PCT = 25.0;
    /** Band width in standard errors (within-run) or standard deviations (history). */
    public static final double BAND_SIGMAS = 3.5;
    /** Asymptotic efficiency factor: the standard error of a median is about 1.2533 sigma / sqrt(n). */
    private static final double MEDIAN_SE_FACTOR = Math.sqrt(Math.PI / 2);

    private final double alpha;
    private final double minEffectPct;

    public VerdictRule() {
        this(ALPHA, MIN_EFFECT_PCT);
    }

    public VerdictRule(double alpha, double minEffectPct) {
        this.alpha = alpha;
        this.minEffectPct = minEffectPct;
    }

    /**
     * @param historicalNoisePct robust standard deviation of the series' recent comparable run medians, as a %
     *                           of their median; null when no history is known
     */
    public MetricComparison compare(double[] base, double[] head, Direction direction, Double historicalNoisePct) {
        Stats.Summary baseSummary = base == null || base.length == 0 ? null : Stats.summarize(base);
        Stats.Summary headSummary = head == null || head.length == 0 ? null : Stats.summarize(head);
        if (baseSummary == null || headSummary == null) {
            return new MetricComparison(baseSummary, headSummary, null, null, null, Verdict.INCONCLUSIVE,
                    baseSummary == null ? "no base values" : "no head values");
        }
        double baseMedian = baseSummary.median();
        Double deltaPct = baseMedian == 0 ? null : (headSummary.median() - baseMedian) / Math.abs(baseMedian) * 100;
        if (deltaPct == null) {
            // Base median 0 (e.g. a pool that is mostly idle): no scale for a relative effect, and rank shifts
            // between near-zero values are nothing anyone can act on. (Errors beyond the budget fail the cell,
            // so they are reported as failures, not here.)
            boolean bothZero = headSummary.median() == 0;
            return new MetricComparison(baseSummary, headSummary, null, null, null,
                    bothZero ? Verdict.WITHIN_NOISE : Verdict.INCONCLUSIVE,
                    bothZero ? null : "base median is 0: no relative change");
        }
        double smallest = MannWhitney.smallestPossiblePValue(base.length, head.length);
        if (smallest >= alpha) {
            if (historicalNoisePct != null) {
                // Too few repetitions for the rank test, but the series' history says how far run medians
                // wander between runs of the same code: judge the step against that band alone.
                double band = noiseBandPct(base, head, baseMedian, historicalNoisePct);
                if (Math.abs(deltaPct) > band) {
                    return new MetricComparison(baseSummary, headSummary, deltaPct, null, band,
                            direction.isWorse(deltaPct) ? Verdict.REGRESSION : Verdict.IMPROVEMENT, null);
                }
                boolean tooNoisy = band > MAX_BAND_PCT;
                return new MetricComparison(baseSummary, headSummary, deltaPct, null, band,
                        tooNoisy ? Verdict.INCONCLUSIVE : Verdict.WITHIN_NOISE,
                        tooNoisy ? "too noisy to judge (band ±" + Math.round(band) + " %)" : null);
            }
            return new MetricComparison(baseSummary, headSummary, deltaPct, null, null, Verdict.INCONCLUSIVE,
                    "too few samples (n=" + base.length + "/" + head.length + ": the exact test cannot reach p<"
                            + alpha + ", and no history)");
        }
        double p = MannWhitney.pValue(base, head);
        double band = noiseBandPct(base, head, baseMedian, historicalNoisePct);
        boolean significant = p < alpha;
        boolean beyondBand = Math.abs(deltaPct) > band;
        Verdict verdict;
        String reason = null;
        if (significant && beyondBand) {
            verdict = direction.isWorse(deltaPct) ? Verdict.REGRESSION : Verdict.IMPROVEMENT;
        } else if (!significant && beyondBand) {
            verdict = Verdict.INCONCLUSIVE;
            reason = "shift beyond the noise band but not significant (p=" + round(p) + ")";
        } else if (band > MAX_BAND_PCT) {
            verdict = Verdict.INCONCLUSIVE;
            reason = "too noisy to judge (band ±" + Math.round(band) + " %)";
        } else {
            verdict = Verdict.WITHIN_NOISE;
        }
        return new MetricComparison(baseSummary, headSummary, deltaPct, p, band, verdict, reason);
    }

    /** The smallest |delta %| this comparison treats as real. */
    double noiseBandPct(double[] base, double[] head, double baseMedian, Double historicalNoisePct) {
        double sigma = Math.max(pooledStandardDeviation(base, head), pooledMadScale(base, head));
        double standardError = MEDIAN_SE_FACTOR * sigma * Math.sqrt(1.0 / base.length + 1.0 / head.length);
        double withinRunPct = BAND_SIGMAS * standardError / Math.abs(baseMedian) * 100;
        double historyPct = historicalNoisePct == null ? 0 : BAND_SIGMAS * historicalNoisePct;
        return Math.max(minEffectPct, Math.max(withinRunPct, historyPct));
    }

    /** The repetitions' scale: the pooled standard deviation, each sample around its own mean. */
    private static double pooledStandardDeviation(double[] a, double[] b) {
        int degrees = a.length + b.length - 2;
        if (degrees <= 0) {
            return 0;
        }
        return Math.sqrt((Stats.variance(a) * (a.length - 1) + Stats.variance(b) * (b.length - 1)) / degrees);
    }

    /**
     * A robust scale that outliers cannot shrink the band below: 1.4826 x the median absolute deviation of
     * both samples' residuals from their own medians.
     */
    private static double pooledMadScale(double[] a, double[] b) {
        double[] residuals = new double[a.length + b.length];
        double medianA = Stats.median(a);
        double medianB = Stats.median(b);
        for (int i = 0; i < a.length; i++) {
            residuals[i] = Math.abs(a[i] - medianA);
        }
        for (int i = 0; i < b.length; i++) {
            residuals[a.length + i] = Math.abs(b[i] - medianB);
        }
        return Stats.MAD_TO_SIGMA * Stats.median(residuals);
    }

    /** Robust sigma of a series' recent run medians in % of their median; null with fewer than 4 points. */
    public static Double historicalNoisePct(double[] recentMedians) {
        if (recentMedians == null || recentMedians.length < 4) {
            return null;
        }
        double median = Stats.median(recentMedians);
        if (median == 0) {
            return null;
        }
        return Stats.madScale(recentMedians) / Math.abs(median) * 100;
    }

    private static double round(double value) {
        return Math.round(value * 1000) / 1000.0;
    }
}
