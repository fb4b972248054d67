package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.CellEstimate;
import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.PairedFailures;
import dev.restbench.runner.stats.PairedRatio;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The A/B verdict (docs/method.md, "A/B"): base and head were started alternately in the same run, one start of
 * each per round in random order, so each round is a block whose two starts saw the same machine state. Per series
 * the blocks' log ratios ln(head/base) go into a paired test ({@link PairedRatio#test}: the t-test, or the exact
 * sign-flip test for a metric the catalogue calls discrete), one-sided for the direction the change took; then
 * {@link Judgement#decide} corrects regressions and improvements as two families for the number of series and applies
 * each metric's minimum effect. A reciprocal of another metric (req_per_cpu_s of cpu_us_per_req)
 * is shown with its change and interval but never judged: its test is its source's again. A metric the catalogue
 * adjusts by a gauge of the host (CPU per request by PostgreSQL's, {@link HostGauge}) is tested on each start's value
 * over its gauge where the cell qualifies, and as measured otherwise; the row says which.
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
        // Both sides ran in this one run. Other work on the service's core or steal can hit one start of a round and
        // not the other: the timings are withheld; counts of the work done (SQL statements per request) are not the
        // host's to move, and stay judged. A host whose speed drifted over the run drifted under both starts of each
        // round: the pairing carries it, and the method says so. Both sides are asked: an A/B's two sides carry the
        // run's one host check, a drill trial's each its own starts' (DrillCommand.rounds).
        String disturbed = head.hostProblemWithinRounds() != null ? head.hostProblemWithinRounds()
                : base.hostProblemWithinRounds();
        String withheld = notComparable == null && disturbed != null ? "verdict withheld: " + disturbed : null;
        if (notComparable == null && withheld == null && head.hostDrift() != null) {
            method = new Judgement.Method(method.name(), method.alpha(), method.minEffectPct(), method.detail()
                    + "; " + head.hostDrift() + ", which each round's pairing carries", method.minEffectExceptions());
        }
        Map<String, RunRecord.Point> basePoints = index(base);
        Map<String, RunRecord.Point> headPoints = index(head);
        Map<String, String> baseFailed = failedCells(base);
        Map<String, String> headFailed = failedCells(head);
        Map<String, SeriesVerdict> failureRows = failureRows(base, head);
        List<SeriesVerdict> rows = new ArrayList<>();
        Map<String, RunRecord.Point> all = new LinkedHashMap<>(headPoints);
        basePoints.forEach(all::putIfAbsent);
        int primaryCount = (int) all.values().stream()
                .filter(p -> p.primary() && (withheld == null || rules.rule(p.metric()).hostIndependent())).count();
        for (RunRecord.Point any : all.values()) {
            RunRecord.Point b = basePoints.get(any.seriesKey());
            RunRecord.Point h = headPoints.get(any.seriesKey());
            boolean judgedByStarts = failureRows.containsKey(any.cellKey());
            if (notComparable != null) {
                rows.add(unjudged(any, b, h, Verdict.NOT_COMPARABLE, notComparable));
            } else if (withheld != null && !rules.rule(any.metric()).hostIndependent()) {
                rows.add(unjudged(any, b, h, Verdict.NOT_COMPARABLE, withheld));
            } else if (h == null) {
                String failed = headFailed.get(any.cellKey());
                // A record without its starts (older than run.json v2) cannot be judged per round: as before.
                rows.add(unjudged(any, b, null, failed == null ? Verdict.NO_VERDICT
                                : judgedByStarts ? Verdict.NO_VERDICT : Verdict.FAILED,
                        failed == null ? notMeasured("head", head, any) : judgedByStarts
                                ? "head failed in every round (its failed starts are judged in the cell's row)"
                                : "head failed: " + failed));
            } else if (b == null) {
                String failed = baseFailed.get(any.cellKey());
                rows.add(unjudged(any, null, h, failed == null ? Verdict.NO_VERDICT
                                : judgedByStarts ? Verdict.NO_VERDICT : Verdict.IMPROVEMENT,
                        failed == null ? notMeasured("base", base, any) : judgedByStarts
                                ? "base failed in every round (its failed starts are judged in the cell's row)"
                                : "base failed, head works: " + failed));
            } else {
                rows.add(paired(any, b, h, alpha, primaryCount, rules.rule(any.metric()),
                        HostGauge.of(rules, any.metric(), any.cellKey(), basePoints, headPoints)));
            }
        }
        if (notComparable == null && withheld == null) {
            rows.addAll(failureRows.values());
        }
        // A cell that failed on the head side, has no metric rows and no starts to judge (a record older than v2).
        headFailed.forEach((cell, reason) -> {
            if (rows.stream().noneMatch(r -> r.cellKey().equals(cell))) {
                String[] parts = cell.split("/", 3);
                boolean baseOk = !baseFailed.containsKey(cell);
                rows.add(new SeriesVerdict(parts[0], parts[1], parts[2], "—", "", Direction.SMALLER, true, null, null,
                        null, null, null, null, null, null, 0, false, baseOk ? Verdict.FAILED : Verdict.NO_VERDICT,
                        (baseOk ? "head failed: " : "failed on both sides: ") + reason));
            }
        });
        return new Judgement(base, head, notComparable, withheld, method,
                notComparable != null ? rows : Judgement.decide(rows, alpha, rules, true));
    }

    private static SeriesVerdict paired(RunRecord.Point any, RunRecord.Point b, RunRecord.Point h, double alpha,
                                        int primaryCount, MetricRules.Rule rule, HostGauge gauge) {
        Map<Integer, Double> baseByRound = b.byRound();
        Map<Integer, Double> headByRound = h.byRound();
        boolean relative = gauge != null && gauge.usable() && gauge.covers(baseByRound.keySet(),
                headByRound.keySet());
        // A reciprocal (requests per CPU-second) is relative in its source's terms: times the gauge, not over it.
        int power = rule.reciprocalOf() != null ? -1 : 1;
        List<Double> pairedBase = new ArrayList<>();
        List<Double> pairedHead = new ArrayList<>();
        baseByRound.forEach((round, value) -> {
            if (headByRound.containsKey(round)) {
                // Relative to the host's speed: each start's value over its own gauge, so a round whose two starts
                // ran on a faster and a slower host pairs their costs in the same terms.
                pairedBase.add(relative ? value / Math.pow(gauge.base().get(round), power) : value);
                pairedHead.add(relative ? headByRound.get(round) / Math.pow(gauge.head().get(round), power)
                        : headByRound.get(round));
            }
        });
        String note = null;
        if (relative) {
            note = asMeasured(baseByRound, headByRound, gauge, alpha);
        } else if (gauge != null && !gauge.usable()) {
            note = gauge.notUsed();
        }
        SeriesVerdict.Side baseSide = side(b);
        SeriesVerdict.Side headSide = side(h);
        boolean steady = b.steady() && h.steady();
        double[] x = pairedBase.stream().mapToDouble(Double::doubleValue).toArray();
        double[] y = pairedHead.stream().mapToDouble(Double::doubleValue).toArray();
        if (x.length > 0 && allZero(x) && allZero(y)) {
            // Exactly equal, not a missing ratio: what the cell never does on either side (no SQL statement on the
            // no-database endpoint, no failed request). A measured 0 is a 0: an absent meter is left out, never 0.
            return row(any, baseSide, headSide, 0.0, 0.0, 0.0, null, null, x.length, steady,
                    rule.judged() ? Verdict.NO_CHANGE : Verdict.NO_VERDICT, rule.reason("0 in every start on both sides"));
        }
        if (hasZero(x) || hasZero(y)) {
            // A metric shown only says why first: its zeros are why (the planner's runs of prepared statements).
            return row(any, baseSide, headSide, null, null, null, null, null, x.length, steady, Verdict.NO_VERDICT,
                    rule.reason("a start measured 0: no ratio"));
        }
        if (x.length < 2) {
            return row(any, baseSide, headSide, x.length == 1 ? (y[0] / x[0] - 1) * 100 : null, null, null, null,
                    null, x.length, steady, rule.judged() ? Verdict.INCONCLUSIVE : Verdict.NO_VERDICT,
                    rule.reason("fewer than 2 rounds with both sides: no test"));
        }
        // The interval at 1 − 2α is the two one-sided tests' interval, the one "no change" is judged by.
        PairedRatio.Result test = PairedRatio.test(x, y, 1 - 2 * alpha, POWER, rule.test());
        if (!rule.judged()) {
            // Shown, never judged: its log ratios are minus its source's in every round, so its test would be the
            // source's again, counted a second time (and in the other family).
            boolean interval = test.status() == PairedRatio.Status.ESTIMATED;
            return row(any, baseSide, headSide, test.changePct(), interval ? pct(test.interval().low()) : null,
                    interval ? pct(test.interval().high()) : null, null, null, test.blocks(), steady,
                    Verdict.NO_VERDICT, rule.shownOnlyReason() + (relative ? "; " + note.replaceFirst("^judged ", "") : ""));
        }
        // One-sided, for the direction the change took: regressions and improvements are tested as two families.
        double pValue = test.ratio() >= 1 ? test.pAbove() : test.pBelow();
        if (test.status() == PairedRatio.Status.NO_SPREAD) {
            // A discrete metric at its resolution: its zero-width interval is no evidence of "no change" within the
            // minimum effect, so the row carries no interval, only the sign test's p-value.
            return row(any, baseSide, headSide, test.changePct(), null, null, pValue, null, test.blocks(),
                    steady, Verdict.INCONCLUSIVE, (note == null ? "" : note + "; ") + String.format(Locale.ROOT,
                            "the same ratio in all %d rounds (a discrete metric at its resolution): no interval, sign"
                            + " test only", test.blocks()));
        }
        // What this design could detect for one series of the family (the Bonferroni bound of Holm's first step), one-
        // sided. The sign-flip test cannot go below 2^(−n): with fewer rounds than that needs, it can detect nothing.
        double familyAlpha = any.primary() ? alpha / Math.max(1, primaryCount) : alpha;
        double detectable = rule.discrete() && Math.pow(2, -test.blocks()) > familyAlpha ? Double.POSITIVE_INFINITY
                : PairedRatio.minDetectableChange(test.sdLog(), test.blocks(), 2 * familyAlpha, POWER) * 100;
        return row(any, baseSide, headSide, test.changePct(), pct(test.interval().low()), pct(test.interval().high()),
                pValue, detectable, test.blocks(), steady, Verdict.INCONCLUSIVE, note);
    }

    /**
     * What a row judged relative to the host's speed says beside its verdict: the gauge's and the cross-check's moves,
     * and the change as measured with its paired interval, so the reader sees what the division took out. Simulated as
     * coded (ab.HostAdjustedCpuSimulationTest): on this box's noise the relative figure finds +10 % CPU in a 7-round
     * jersey PR where the measured one almost never does, and keeps A/A reds within α.
     */
    private static String asMeasured(Map<Integer, Double> baseByRound, Map<Integer, Double> headByRound,
                                     HostGauge gauge, double alpha) {
        List<Double> base = new ArrayList<>();
        List<Double> head = new ArrayList<>();
        baseByRound.forEach((round, value) -> {
            if (headByRound.containsKey(round) && value > 0 && headByRound.get(round) > 0) {
                base.add(value);
                head.add(headByRound.get(round));
            }
        });
        String crossCheck = gauge.crossCheck() == null ? "" : String.format(Locale.ROOT, ", %s %+.1f %%",
                gauge.crossCheck(), gauge.crossChange());
        String measured = "";
        if (base.size() >= 2) {
            PairedRatio.Result test = PairedRatio.tTest(base.stream().mapToDouble(Double::doubleValue).toArray(),
                    head.stream().mapToDouble(Double::doubleValue).toArray(), 1 - 2 * alpha, POWER);
            String interval = test.status() == PairedRatio.Status.ESTIMATED ? String.format(Locale.ROOT,
                    " (%+.1f…%+.1f %%)", pct(test.interval().low()), pct(test.interval().high())) : "";
            measured = String.format(Locale.ROOT, "; as measured %+.1f %%%s", test.changePct(), interval);
        }
        return String.format(Locale.ROOT, "judged relative to the host's speed: %s %+.1f %%%s%s", gauge.metric(),
                gauge.changePct(baseByRound.keySet(), headByRound.keySet()), crossCheck, measured);
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

    private static boolean allZero(double[] values) {
        for (double v : values) {
            if (v != 0) {
                return false;
            }
        }
        return true;
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

    /**
     * Per cell with a failed start on either side, one primary row that judges the failures round by round
     * ({@link PairedFailures}: McNemar's exact test over the rounds where only one side failed), so that one unlucky
     * start cannot turn a verdict red (review D5). A side that failed in every one of at least three rounds while the
     * other never did is decided at once (a crash, not chance: {@link PairedFailures#ALWAYS_MIN_ROUNDS}); an imbalance otherwise carries its one-sided p-value
     * into {@link Judgement#decide}, where it joins its direction's Holm family with the primary series.
     */
    static Map<String, SeriesVerdict> failureRows(RunRecord base, RunRecord head) {
        Map<String, List<RunRecord.Start>> baseStarts = base.starts();
        Map<String, List<RunRecord.Start>> headStarts = head.starts();
        Map<String, SeriesVerdict> rows = new LinkedHashMap<>();
        java.util.Set<String> cells = new java.util.LinkedHashSet<>(headStarts.keySet());
        cells.addAll(baseStarts.keySet());
        for (String cell : cells) {
            Map<Integer, String> b = byRound(baseStarts.getOrDefault(cell, List.of()));
            Map<Integer, String> h = byRound(headStarts.getOrDefault(cell, List.of()));
            int rounds = 0;
            int headOnly = 0;
            int baseOnly = 0;
            int both = 0;
            String headReason = null;
            String baseReason = null;
            for (Map.Entry<Integer, String> entry : h.entrySet()) {
                if (!b.containsKey(entry.getKey())) {
                    continue;
                }
                rounds++;
                String hf = entry.getValue();
                String bf = b.get(entry.getKey());
                if (hf != null && headReason == null) {
                    headReason = hf;
                }
                if (bf != null && baseReason == null) {
                    baseReason = bf;
                }
                if (hf != null && bf != null) {
                    both++;
                } else if (hf != null) {
                    headOnly++;
                } else if (bf != null) {
                    baseOnly++;
                }
            }
            PairedFailures failures = new PairedFailures(rounds, headOnly, baseOnly, both);
            if (failures.any()) {
                rows.put(cell, failureRow(cell, failures, headReason, baseReason));
            }
        }
        return rows;
    }

    /** The id of the row that judges a cell's failed starts (not a metric of the catalogue). */
    public static final String FAILED_STARTS = "failed_starts";

    private static SeriesVerdict failureRow(String cell, PairedFailures f, String headReason, String baseReason) {
        String[] parts = cell.split("/", 3);
        SeriesVerdict.Side baseSide = new SeriesVerdict.Side(f.baseOnly() + f.both(), f.rounds(), 0, null);
        SeriesVerdict.Side headSide = new SeriesVerdict.Side(f.headOnly() + f.both(), f.rounds(), 0, null);
        String counts = String.format(Locale.ROOT, "of %d rounds, head failed alone in %d, base alone in %d, both"
                + " in %d", f.rounds(), f.headOnly(), f.baseOnly(), f.both());
        Verdict verdict;
        Double p = null;
        String reason;
        if (f.headAlwaysFails()) {
            verdict = Verdict.FAILED;
            reason = "head failed in all " + f.rounds() + " rounds, base in none: " + headReason;
        } else if (f.baseAlwaysFails()) {
            verdict = Verdict.IMPROVEMENT;
            reason = "base failed in all " + f.rounds() + " rounds, head works: " + baseReason;
        } else if (f.headOnly() > f.baseOnly()) {
            verdict = Verdict.FAILED;
            p = f.pHeadWorse();
            reason = counts + " (" + headReason + ")";
        } else if (f.baseOnly() > f.headOnly()) {
            verdict = Verdict.IMPROVEMENT;
            p = f.pBaseWorse();
            reason = counts + " (" + baseReason + ")";
        } else {
            verdict = Verdict.NO_VERDICT;
            reason = f.both() == f.rounds() ? "failed on both sides in every round: " + headReason
                    : counts + ": no difference";
        }
        return new SeriesVerdict(parts[0], parts[1], parts[2], FAILED_STARTS, "failed starts", Direction.SMALLER,
                true, baseSide, headSide, null, null, null, p, null, null, f.rounds(), true, verdict, reason);
    }

    private static Map<Integer, String> byRound(List<RunRecord.Start> starts) {
        Map<Integer, String> out = new LinkedHashMap<>();
        for (RunRecord.Start start : starts) {
            // Two starts of one side in one round cannot happen in an interleaved run; keep a failure if they do.
            out.merge(start.round(), start.failure() == null ? "" : start.failure(),
                    (x, y) -> x.isEmpty() ? y : x);
        }
        out.replaceAll((round, failure) -> failure.isEmpty() ? null : failure);
        return out;
    }

    /**
     * "not measured in head", with the window that lacked it when the side's cell left the metric out because one of
     * its windows had no value (RunResults): the reader sees which start to look at, not a metric that vanished.
     */
    private static String notMeasured(String side, RunRecord run, RunRecord.Point point) {
        java.util.Optional<RunRecord.Cell> cell = run == null ? java.util.Optional.empty()
                : run.cells().stream().filter(c -> c.key().equals(point.cellKey())).findFirst();
        if (cell.isPresent() && cell.get().notMeasured()) {
            return "not measured in " + side + ": " + cell.get().reason();
        }
        String where = cell.map(c -> c.lacking(point.metric())).orElse(null);
        return "not measured in " + side + (where == null ? "" : ": " + where + " lacks it, so the cell left it out");
    }

    /** The cells that failed, with why; a cell never begun (not measured) did not fail and is not among them. */
    static Map<String, String> failedCells(RunRecord run) {
        Map<String, String> failed = new LinkedHashMap<>();
        if (run != null) {
            for (RunRecord.Point point : run.points()) {
                if (point.failed()) {
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
