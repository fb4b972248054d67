package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.ChangePoints;
import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.Interval;
import dev.restbench.runner.stats.PredictionInterval;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A single run judged against the history (docs/method.md, "Against the history"): a series gets a verdict only
 * from a prediction interval over at least {@link PredictionInterval#MIN_HISTORY} comparable past runs (same
 * environment fingerprint — machine and method — and profile), in which a new run of unchanged code falls with
 * probability 1 − 2α. With fewer, the number is shown without a verdict. A cell that failed where the newest
 * comparable run had it working is a failure, whatever the history's length.
 */
public final class HistoryJudge {

    private HistoryJudge() {
    }

    /**
     * @param history runs oldest first; only those comparable with head (and not head itself) are used, the newest
     *                {@code window} of them
     * @param rules   per metric its minimum effect, whether it is judged at all (a reciprocal is not) and whether
     *                the host can move it: the head run's own ({@link MetricRules#ofRecord})
     */
    public static Judgement judge(List<RunRecord> history, RunRecord head, int window, double alpha,
                                  MetricRules rules) {
        List<RunRecord> comparable = new ArrayList<>();
        for (int i = history.size() - 1; i >= 0 && comparable.size() < window; i--) {
            RunRecord run = history.get(i);
            if (!run.runId().equals(head.runId()) && Judgement.notComparableReason(run, head) == null) {
                comparable.add(0, run);
            }
        }
        RunRecord newest = comparable.isEmpty() ? null : comparable.get(comparable.size() - 1);
        Map<String, List<Double>> past = new LinkedHashMap<>();
        // How many starts each of those values is the mean of, in the same order.
        Map<String, List<Integer>> pastStarts = new LinkedHashMap<>();
        for (RunRecord run : comparable) {
            for (RunRecord.Point point : run.points()) {
                if (point.ok() && point.values().length > 0 && point.metric() != null) {
                    past.computeIfAbsent(point.seriesKey(), k -> new ArrayList<>()).add(cellValue(point));
                    pastStarts.computeIfAbsent(point.seriesKey(), k -> new ArrayList<>()).add(point.values().length);
                }
            }
        }
        // The cells the newest comparable run measured: a failure there is news (one it did not measure, failed or
        // never begun, says nothing about whether the cell worked).
        java.util.Set<String> newestMeasured = new java.util.HashSet<>();
        if (newest != null) {
            newest.points().stream().filter(p -> p.ok() && p.values().length > 0 && p.metric() != null)
                    .forEach(p -> newestMeasured.add(p.cellKey()));
        }
        List<SeriesVerdict> rows = new ArrayList<>();
        for (RunRecord.Point point : head.points()) {
            if (point.notMeasured()) {
                // Never begun (no runtime on this machine, no budget left): no figure, and no failure to flag.
                rows.add(new SeriesVerdict(point.variant(), point.scenario(), point.regime(), "—", "",
                        Direction.SMALLER, true, null, null, null, null, null, null, null, null, 0, false,
                        Verdict.NO_VERDICT, "not measured: " + point.reason()));
                continue;
            }
            if (!point.ok()) {
                boolean workedBefore = newestMeasured.contains(point.cellKey());
                rows.add(new SeriesVerdict(point.variant(), point.scenario(), point.regime(), "—", "",
                        Direction.SMALLER, true, null, null, null, null, null, null, null, null, 0, false,
                        workedBefore ? Verdict.FAILED : Verdict.NO_VERDICT,
                        (workedBefore ? "failed, worked in " + newest.runId() + ": " : "failed: ") + point.reason()));
                continue;
            }
            if (point.values().length == 0) {
                continue;
            }
            SeriesVerdict row = judge(point, past.getOrDefault(point.seriesKey(), List.of()),
                    pastStarts.getOrDefault(point.seriesKey(), List.of()), alpha);
            MetricRules.Rule rule = rules.rule(point.metric());
            // A reciprocal's deviation is minus its source's in every run: shown, judged once, at its source.
            // Every row of a metric never judged says why, with or without a test (a zero, too few runs).
            rows.add(rule.judged() ? row : row.untested(Verdict.NO_VERDICT, row.pValue() == null
                    ? rule.reason(row.reason()) : rule.shownOnlyReason()));
        }
        String detail = String.format(Locale.ROOT, "prediction interval over the %d newest comparable runs (at least %d"
                + " needed for a verdict)", comparable.size(), PredictionInterval.MIN_HISTORY);
        Judgement.Method method = new Judgement.Method("history", alpha, rules.commonMinEffectPct(), detail,
                rules.exceptions());
        if (head.hostProblem() != null) {
            // As in the A/B: the timings are withheld, the counts of work (host-independent) are still judged.
            String withheld = "verdict withheld: " + head.hostProblem();
            List<SeriesVerdict> kept = rows.stream().map(r -> rules.rule(r.metric()).hostIndependent() ? r
                    : r.untested(Verdict.NOT_COMPARABLE, withheld)).toList();
            return new Judgement(newest, head, null, withheld, method, Judgement.decide(kept, alpha, rules, false));
        }
        return new Judgement(newest, head, null, method, Judgement.decide(rows, alpha, rules, false));
    }

    private static SeriesVerdict judge(RunRecord.Point point, List<Double> history, List<Integer> historyStarts,
                                       double alpha) {
        SeriesVerdict.Side side = PairedJudge.side(point);
        double value = side.value();
        double[] window = history.stream().mapToDouble(Double::doubleValue).toArray();
        int cut = newestStep(window, value);
        double[] past = Arrays.copyOfRange(window, cut, window.length);
        // A run that measured fewer starts than the past runs (the budget left some out) is noisier than they were:
        // the interval widens by the bound of PredictionInterval, never narrows. The past runs' spread is that of
        // their average variance, σ²_run + σ²_start / H with H the harmonic mean of their starts, so H / k bounds it.
        List<Integer> startsSince = historyStarts.subList(cut, historyStarts.size());
        double pastStarts = startsSince.isEmpty() ? 0
                : startsSince.size() / startsSince.stream().mapToDouble(k -> 1.0 / k).sum();
        int starts = point.values().length;
        // (A harmonic mean of equal counts can land a rounding error above them: that is no fewer starts.)
        double varianceRatio = pastStarts > starts * (1 + 1e-9) ? pastStarts / starts : 1;
        if (cut > 0 && past.length < PredictionInterval.MIN_HISTORY) {
            // A step the history already holds (merged, perhaps flagged when it happened): the runs before it are
            // another level, so they are no baseline; until enough runs at the new level exist, no verdict.
            SeriesVerdict.Side since = new SeriesVerdict.Side(Descriptive.mean(past), past.length, 0, null);
            return new SeriesVerdict(point.variant(), point.scenario(), point.regime(), point.metric(), point.unit(),
                    point.direction(), point.primary(), since, side, (value / since.value() - 1) * 100, null, null,
                    null, null, null, past.length, point.steady(), Verdict.NO_VERDICT, String.format(Locale.ROOT,
                    "a step %d run(s) ago (%+.1f %%): %d comparable run(s) since, a verdict needs %d",
                    window.length - cut, stepPct(window, cut), past.length, PredictionInterval.MIN_HISTORY));
        }
        SeriesVerdict.Side base = past.length == 0 ? null
                : new SeriesVerdict.Side(allPositive(past) ? Descriptive.geometricMean(past) : Descriptive.mean(past),
                past.length, 0, null);
        if (past.length >= PredictionInterval.MIN_HISTORY && value == 0 && java.util.Arrays.stream(past)
                .allMatch(v -> v == 0)) {
            // Exactly equal, not a missing ratio: what the cell never does (no SQL on the no-database endpoint).
            return new SeriesVerdict(point.variant(), point.scenario(), point.regime(), point.metric(), point.unit(),
                    point.direction(), point.primary(), base, side, 0.0, 0.0, 0.0, null, null, null, past.length,
                    point.steady(), Verdict.NO_CHANGE, "0 in this run and in every comparable past run");
        }
        if (past.length < PredictionInterval.MIN_HISTORY || !(value > 0) || !allPositive(past)) {
            String reason = past.length < PredictionInterval.MIN_HISTORY
                    ? past.length + " comparable past run(s), a verdict needs " + PredictionInterval.MIN_HISTORY
                    : "a zero value: no ratio";
            Double change = base == null || base.value() == 0 ? null : (value / base.value() - 1) * 100;
            return new SeriesVerdict(point.variant(), point.scenario(), point.regime(), point.metric(), point.unit(),
                    point.direction(), point.primary(), base, side, change, null, null, null, null, null, past.length,
                    point.steady(), Verdict.NO_VERDICT, reason);
        }
        PredictionInterval.Judgement pi = PredictionInterval.judge(past, value, 1 - 2 * alpha, varianceRatio);
        // The change's interval: the deviation ln(value / center) ± the prediction interval's half-width, i.e. the
        // value against the interval's two ends.
        Interval interval = pi.interval();
        double low = (value / interval.high() - 1) * 100;
        double high = (value / interval.low() - 1) * 100;
        return new SeriesVerdict(point.variant(), point.scenario(), point.regime(), point.metric(), point.unit(),
                point.direction(), point.primary(), base, side, pi.deviationPct(), low, high, pi.pValue(), null,
                null, past.length, point.steady(), Verdict.INCONCLUSIVE, varianceRatio > 1
                ? String.format(Locale.ROOT, "this run measured %d start(s), the past runs %s on average: the"
                        + " interval is widened for it", starts, new java.text.DecimalFormat("0.#",
                        java.text.DecimalFormatSymbols.getInstance(Locale.ROOT)).format(pastStarts)) : null);
    }

    /**
     * Where the history's newest level starts: the newest change point ({@link ChangePoints}, the analysis' own rule)
     * of the window followed by the judged value, when it lies inside the window; 0 when there is none. The judged
     * value takes part so that a step two runs before it (three points at the new level) is seen; a change point
     * can never isolate the judged value itself (segments of at least three runs).
     */
    static int newestStep(double[] window, double value) {
        if (window.length < 2 * ChangePoints.Settings.DEFAULTS.minSegment() || !allPositive(window) || !(value > 0)) {
            return 0;
        }
        double[] series = Arrays.copyOf(window, window.length + 1);
        series[window.length] = value;
        int newest = 0;
        for (ChangePoints.ChangePoint point : ChangePoints.detect(series)) {
            if (point.index() < window.length) {
                newest = Math.max(newest, point.index());
            }
        }
        return newest;
    }

    private static double stepPct(double[] window, int cut) {
        double before = Descriptive.mean(Arrays.copyOfRange(window, 0, cut));
        double after = Descriptive.mean(Arrays.copyOfRange(window, cut, window.length));
        return (after / before - 1) * 100;
    }

    /** A cell's value in one run: the geometric mean of its starts (the mean when a start measured 0). */
    static double cellValue(RunRecord.Point point) {
        return allPositive(point.values()) ? Descriptive.geometricMean(point.values()) : Descriptive.mean(point.values());
    }

    private static boolean allPositive(double[] values) {
        for (double v : values) {
            if (!(v > 0)) {
                return false;
            }
        }
        return true;
    }
}
