package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.CellEstimate;
import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.PairedRatio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The A/B verdict (docs/verdicts.md, "A/B"): base and head were started alternately in the same run, one start of
 * each per round in random order, so each round is a block whose two starts saw the same machine state. Per series
 * the blocks' log ratios ln(head/base) go into a paired test ({@link PairedRatio#test}: the t-test, or the exact
 * sign-flip test for a metric the catalogue calls discrete), one-sided for the direction the change took; then
 * {@link Judgement#decide} corrects regressions and improvements as two families for the number of series and applies
 * each metric's minimum effect. A reciprocal of another metric (req_per_cpu_s of cpu_us_per_req)
 * is shown with its change and interval but never judged: its test is its source's again.
 */
public final class PairedJudge {

    /** The power at which "the smallest change this run could have detected" is stated. */
    public static final double POWER = 0.8;

    private PairedJudge() {
    }

    /**
     * @param base         the base side (an interleaved run's part, {@link InterleavedRun#select})
     * @param head         the head side of the same run
     * @param alpha        the family-wise level of each direction's family for the primary series (the level of the
     *                     look that decides: ab.Design's) and the false discovery rate for the others
     * @param rules        per metric: the minimum effect, the test, whether it is judged at all (the catalogue's)
     */
    public static Judgement judge(RunRecord base, RunRecord head, double alpha, MetricRules rules, String detail) {
        Judgement.Method method = new Judgement.Method("paired A/B blocks", alpha, rules.commonMinEffectPct(), detail,
                rules.exceptions());
        String notComparable = Judgement.notComparableReason(base, head);
        Map<String, RunRecord.Point> basePoints = index(base);
        Map<String, RunRecord.Point> headPoints = index(head);
        Map<String, String> baseFailed = failedCells(base);
        Map<String, String> headFailed = failedCells(head);
        List<SeriesVerdict> rows = new ArrayList<>();
        Map<String, RunRecord.Point> all = new LinkedHashMap<>(headPoints);
        basePoints.forEach(all::putIfAbsent);
        int primaryCount = (int) all.values().stream().filter(RunRecord.Point::primary).count();
        for (RunRecord.Point any : all.values()) {
            RunRecord.Point b = basePoints.get(any.seriesKey());
            RunRecord.Point h = headPoints.get(any.seriesKey());
            if (notComparable != null) {
                rows.add(unjudged(any, b, h, Verdict.NOT_COMPARABLE, notComparable));
            } else if (h == null) {
                String failed = headFailed.get(any.cellKey());
                rows.add(unjudged(any, b, null, failed != null ? Verdict.FAILED : Verdict.NO_VERDICT,
                        failed != null ? "head failed: " + failed : "not measured in head"));
            } else if (b == null) {
                String failed = baseFailed.get(any.cellKey());
                rows.add(unjudged(any, null, h, failed != null ? Verdict.IMPROVEMENT : Verdict.NO_VERDICT,
                        failed != null ? "base failed, head works: " + failed : "not measured in base"));
            } else {
                rows.add(paired(any, b, h, alpha, primaryCount, rules.rule(any.metric())));
            }
        }
        // A cell that failed on the head side and has no metric rows yet (failed on both sides, or new and failed).
        headFailed.forEach((cell, reason) -> {
            if (rows.stream().noneMatch(r -> r.cellKey().equals(cell))) {
                String[] parts = cell.split("/", 3);
                boolean baseOk = !baseFailed.containsKey(cell);
                rows.add(new SeriesVerdict(parts[0], parts[1], parts[2], "—", "", Direction.SMALLER, true, null, null,
                        null, null, null, null, null, null, 0, false, baseOk ? Verdict.FAILED : Verdict.NO_VERDICT,
                        (baseOk ? "head failed: " : "failed on both sides: ") + reason));
            }
        });
        return new Judgement(base, head, notComparable, method,
                notComparable != null ? rows : Judgement.decide(rows, alpha, rules, true));
    }

    private static SeriesVerdict paired(RunRecord.Point any, RunRecord.Point b, RunRecord.Point h, double alpha,
                                        int primaryCount, MetricRules.Rule rule) {
        Map<Integer, Double> baseByRound = byRound(b);
        Map<Integer, Double> headByRound = byRound(h);
        List<Double> pairedBase = new ArrayList<>();
        List<Double> pairedHead = new ArrayList<>();
        baseByRound.forEach((round, value) -> {
            if (headByRound.containsKey(round)) {
                pairedBase.add(value);
                pairedHead.add(headByRound.get(round));
            }
        });
        SeriesVerdict.Side baseSide = side(b);
        SeriesVerdict.Side headSide = side(h);
        boolean steady = b.steady() && h.steady();
        double[] x = pairedBase.stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = pairedHead.stream().mapToDouble(Double::doubleValue).toArray();
        if (hasZero(x) || hasZero(y)) {
            return row(any, baseSide, headSide, null, null, null, null, null, x.length, steady, Verdict.NO_VERDICT,
                    "a start measured 0: no ratio");
        }
        if (x.length < 2) {
            return row(any, baseSide, headSide, x.length == 1 ? (y[0] / x[0] - 1) * 100 : null, null, null, null,
                    null, x.length, steady, Verdict.INCONCLUSIVE, "fewer than 2 rounds with both sides: no test");
        }
        // The interval at 1 − 2α is the two one-sided tests' interval, the one "no change" is judged by.
        PairedRatio.Result test = PairedRatio.test(x, y, 1 - 2 * alpha, POWER, rule.test());
        if (!rule.judged()) {
            // Shown, never judged: its log ratios are minus its source's in every round, so its test would be the
            // source's again, counted a second time (and in the other family).
            boolean interval = test.status() == PairedRatio.Status.ESTIMATED;
            return row(any, baseSide, headSide, test.changePct(), interval ? pct(test.interval().low()) : null,
                    interval ? pct(test.interval().high()) : null, null, null, test.blocks(), steady,
                    Verdict.NO_VERDICT, "shown only: the reciprocal of " + rule.reciprocalOf() + ", judged there");
        }
        // One-sided, for the direction the change took: regressions and improvements are tested as two families.
        double pValue = test.ratio() >= 1 ? test.pAbove() : test.pBelow();
        if (test.status() == PairedRatio.Status.NO_SPREAD) {
            // A discrete metric at its resolution: its zero-width interval is no evidence of "no change" within the
            // minimum effect, so the row carries no interval, only the sign test's p-value.
            return row(any, baseSide, headSide, test.changePct(), null, null, pValue, null, test.blocks(),
                    steady, Verdict.INCONCLUSIVE, String.format(Locale.ROOT, "the same ratio in all %d"
                            + " rounds (a discrete metric at its resolution): no interval, sign test only",
                            test.blocks()));
        }
        // What this design could detect for one series of the family (the Bonferroni bound of Holm's first step), one-
        // sided. The sign-flip test cannot go below 2^(−n): with fewer rounds than that needs, it can detect nothing.
        double familyAlpha = any.primary() ? alpha / Math.max(1, primaryCount) : alpha;
        double detectable = rule.discrete() && Math.pow(2, -test.blocks()) > familyAlpha ? Double.POSITIVE_INFINITY
                : PairedRatio.minDetectableChange(test.sdLog(), test.blocks(), 2 * familyAlpha, POWER) * 100;
        return row(any, baseSide, headSide, test.changePct(), pct(test.interval().low()), pct(test.interval().high()),
                pValue, detectable, test.blocks(), steady, Verdict.INCONCLUSIVE, null);
    }

    private static SeriesVerdict row(RunRecord.Point p, SeriesVerdict.Side base, SeriesVerdict.Side head,
                                     Double changePct, Double low, Double high, Double pValue, Double detectable,
                                     int n, boolean steady, Verdict verdict, String reason) {
        return new SeriesVerdict(p.variant(), p.scenario(), p.regime(), p.metric(), p.unit(), p.direction(),
                p.primary(), base, head, changePct, low, high, pValue, null, detectable, n, steady, verdict, reason);
    }

    private static SeriesVerdict unjudged(RunRecord.Point any, RunRecord.Point b, RunRecord.Point h, Verdict verdict,
                                          String reason) {
        SeriesVerdict.Side baseSide = b == null ? null : side(b);
        SeriesVerdict.Side headSide = h == null ? null : side(h);
        Double change = baseSide == null || headSide == null || baseSide.value() == 0 ? null
                : (headSide.value() / baseSide.value() - 1) * 100;
        return row(any, baseSide, headSide, change, null, null, null, null, 0,
                (b == null || b.steady()) && (h == null || h.steady()), verdict, reason);
    }

    /** One side's figure: the geometric mean of its starts' values and their spread. */
    static SeriesVerdict.Side side(RunRecord.Point point) {
        double[] values = point.values();
        int windows = 0;
        for (double[] w : point.windows()) {
            windows += w.length;
        }
        if (hasZero(values)) {
            double mean = Descriptive.mean(values);
            return new SeriesVerdict.Side(mean, values.length, windows, null);
        }
        double value = Descriptive.geometricMean(values);
        Double spread = values.length < 2 ? null
                : (java.util.Arrays.stream(values).max().orElse(0) - java.util.Arrays.stream(values).min().orElse(0))
                / value * 100;
        return new SeriesVerdict.Side(value, values.length, windows, spread);
    }

    private static Map<Integer, Double> byRound(RunRecord.Point point) {
        Map<Integer, Double> out = new LinkedHashMap<>();
        for (int i = 0; i < point.values().length; i++) {
            out.put(point.rounds()[i], point.values()[i]);
        }
        return out;
    }

    private static boolean hasZero(double[] values) {
        for (double v : values) {
            if (!(v > 0)) {
                return true;
            }
        }
        return false;
    }

    private static Double pct(double ratio) {
        return Double.isFinite(ratio) ? (ratio - 1) * 100 : null;
    }

    private static Map<String, RunRecord.Point> index(RunRecord run) {
        Map<String, RunRecord.Point> points = new LinkedHashMap<>();
        for (RunRecord.Point point : run.points()) {
            if (point.ok() && point.values().length > 0) {
                points.put(point.seriesKey(), point);
            }
        }
        return points;
    }

    static Map<String, String> failedCells(RunRecord run) {
        Map<String, String> failed = new LinkedHashMap<>();
        if (run != null) {
            for (RunRecord.Point point : run.points()) {
                if (!point.ok()) {
                    failed.put(point.cellKey(), point.reason());
                }
            }
        }
        return failed;
    }

    /** Kept for callers that need the estimate of one side's cell (the site's whiskers, the drill). */
    static CellEstimate.Estimate estimate(RunRecord.Point point, double confidence) {
        return CellEstimate.of(point.windows(), confidence);
    }
}
