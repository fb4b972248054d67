package dev.restbench.runner.analysis;

/**
 * One metric of one cell, base vs head. Summaries are null when a side has no values (failed cell, missing
 * metric); deltaPct and noiseBandPct are null when they cannot be computed; reason explains inconclusive and
 * not-comparable verdicts in words (null otherwise).
 */
public record MetricComparison(
        Stats.Summary base,
        Stats.Summary head,
        Double deltaPct,
        Double pValue,
        Double noiseBandPct,
        Verdict verdict,
        String reason) {
}
