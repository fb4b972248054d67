package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.PairedRatio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The host's speed in each start's own windows, for a metric the catalogue judges relative to it ({@code adjustedBy}:
 * the service's CPU per request over PostgreSQL's). On this project's 2-core cloud box the whole box ran 15–25 %
 * slower in some starts than in others: every process spent more CPU on the same requests, and the service's CPU per
 * request moved with PostgreSQL's (r = 0.97–0.99 per start) and the load generator's (0.95–0.98). Divided by
 * PostgreSQL's, jersey's A/A paired spread per round fell from 14–20 % to 2.8–3.5 % in four sittings
 * (docs/results/2026-12-03-host-gauge-probes.md), and an injected +10 % survived the division (+11.2 %).
 *
 * <p>PostgreSQL's CPU per request gauges the host only while its work per request is the same on both sides, so the
 * gauge is used only where that is shown. The service must not have bound every start of both sides ({@link
 * #qualifies}): there its own noise (Spring's compilers) is not the host's, and a slower service spreads the other
 * processes' per-second costs over fewer requests. The SQL statements, rows, pages and text per request must agree
 * within their minimum effects (another plan or index moves the pages, another statement the text), the share of
 * statements the planner ran for within its own ({@link #PLANS}: prepared statements added or dropped), the answers'
 * bytes within {@link #MAX_BYTES_CHANGE_PCT}, and PostgreSQL's CPU per request must have moved with the cross-check's
 * (the load generator's, {@code crossCheckedBy}) within {@link #MAX_APART_PCT}: work PostgreSQL does with the same
 * SQL, rows, pages and plans (a cheaper plan of the same pages, a setting) moves it alone. Otherwise the metric is
 * judged as measured, and the row says why.
 *
 * @param metric      the gauge's metric id
 * @param base        the gauge per round, base side
 * @param head        the gauge per round, head side
 * @param crossCheck  the cross-check's metric id, null without one
 * @param crossChange the cross-check's paired change in %, null without one
 * @param notUsed     why the metric is judged as measured instead (null when the gauge is usable)
 */
record HostGauge(String metric, Map<Integer, Double> base, Map<Integer, Double> head, String crossCheck,
                 Double crossChange, String notUsed) {

    /** The metric whose change means the load generator's work per request changed. */
    static final String RESPONSE_BYTES = "response_bytes_per_req";
    /** The count without which PostgreSQL did no work for the cell, and its CPU gauges nothing. */
    static final String STATEMENTS = "sql_statements_per_req";
    /**
     * The metrics whose change means PostgreSQL's work per request changed: its statements, their rows, the pages
     * they touched (another plan, an index used or dropped, with the same statements and rows), and their text (other
     * SQL with the same counts: a sort or a filter added or dropped).
     */
    static final List<String> SQL_WORK = List.of("sql_statements_per_req", "sql_rows_per_req", "sql_blocks_per_req",
            "sql_text_bytes_per_req");
    /**
     * The planner's runs per request: compared as a share of the statements, not as a ratio, since a service whose
     * statements are prepared plans almost never (0 in most windows, a few after a connection opens), and a ratio of
     * near-zeros says nothing. A service that stops preparing plans once per statement, one that starts plans none,
     * with the same statements, rows, pages and text, and PostgreSQL's CPU per request moves with the planning it
     * gained or saved, not with the host.
     */
    static final String PLANS = "sql_plans_per_req";
    /**
     * Beyond this move, in percentage points, of the statements planned, PostgreSQL's work per request changed. A
     * service's share is 0 (prepared, a cached generic plan) or 1 (unprepared, or custom plans PostgreSQL finds
     * cheaper) per statement; between, a window holds only a connection's first plans (pgjdbc prepares from a
     * statement's fifth call, PostgreSQL keeps a generic plan after five custom ones: ~9 plans per statement and
     * connection, against thousands of statements a window). 2 points is a fiftieth of the statements changing how
     * they are sent, far beyond that and far below any change of a driver setting.
     */
    static final double MAX_PLANNED_SHARE_CHANGE_PP = 2;
    /**
     * Beyond this move of the answers' bytes per request the load generator's work per request is another, and it
     * checks nothing. A start's bytes per request vary by 1–2 % with the data a list returns.
     */
    static final double MAX_BYTES_CHANGE_PCT = 5;
    /**
     * How far the gauge may move against its cross-check before its work is taken to have changed. Under no change
     * PostgreSQL's and the load generator's CPU per request differed per round by 3.1–7.5 % (paired sd) in jersey's
     * database-bound cells, so a 7-round mean by 1.2–2.8 %.
     */
    static final double MAX_APART_PCT = 5;
    /** What a cell's starts were bound by when they agreed, beside "mixed" (RunResults.Cell#bottleneck). */
    static final Set<String> KNOWN_BOUNDS = Set.of("database", "load-generator", "service", "mixed");

    /**
     * The gauge is used unless the service bound every start of both sides, or a side's bound is unknown. A regression
     * near the knee pushes some of the head's starts over it: jersey's +10 % CPU copy was bound by the service in 5
     * of 8 starts where its base was bound by PostgreSQL in all 8, so a rule asking every start to be bound elsewhere
     * would never judge the regressions it is for. Where the head's throughput falls with its own CPU, the load
     * generator's CPU per request rises with it and the cross-check turns the gauge off beyond 5 %.
     */
    static boolean qualifies(String baseBound, String headBound) {
        return baseBound != null && headBound != null && KNOWN_BOUNDS.contains(baseBound) && KNOWN_BOUNDS.contains(headBound)
                && !("service".equals(baseBound) && "service".equals(headBound));
    }

    /**
     * The gauge; or why it cannot be used although the cell qualifies (the work outside the service changed, or
     * the gauge moved without its cross-check); null when there is nothing to say: the rule adjusts nothing, the
     * record has no gauge, or the service bound every start of both sides.
     */
    static HostGauge of(MetricRules rules, String adjusted, String cellKey, Map<String, RunRecord.Point> basePoints,
                        Map<String, RunRecord.Point> headPoints) {
        MetricRules.Rule rule = rules.rule(adjusted);
        if (rule.reciprocalOf() != null) {
            // A reciprocal is shown in its source's terms: relative to the host where its source is.
            rule = rules.rule(rule.reciprocalOf());
        }
        String metric = rule.adjustedBy();
        if (metric == null) {
            return null;
        }
        RunRecord.Point b = basePoints.get(cellKey + "/" + metric);
        RunRecord.Point h = headPoints.get(cellKey + "/" + metric);
        if (b == null || h == null || !positive(b.byRound()) || !positive(h.byRound())) {
            return null; // a record from before the gauge, or a database the runner cannot see
        }
        RunRecord.Point ab = basePoints.get(cellKey + "/" + adjusted);
        RunRecord.Point ah = headPoints.get(cellKey + "/" + adjusted);
        if (ab == null || ah == null || !qualifies(ab.bottleneck(), ah.bottleneck())) {
            return null; // judged as measured, as every metric is by default
        }
        // What is not measured on both sides is not shown unchanged: the gauge is then not used.
        for (String work : SQL_WORK) {
            RunRecord.Point wb = basePoints.get(cellKey + "/" + work);
            RunRecord.Point wh = headPoints.get(cellKey + "/" + work);
            if (wb == null || wh == null) {
                return notUsed(metric, work + " was not measured on both sides, so nothing shows PostgreSQL's work"
                        + " unchanged");
            }
            if (work.equals(STATEMENTS) && !(positive(wb.byRound()) && positive(wh.byRound()))) {
                return notUsed(metric, "PostgreSQL ran no statement for this cell in a start, so its CPU gauges"
                        + " nothing");
            }
            String moved = moved(wb, wh, rules.minEffectPct(work));
            if (moved != null) {
                return notUsed(metric, work + " moved " + moved);
            }
        }
        String plans = plansMoved(MAX_PLANNED_SHARE_CHANGE_PP, basePoints.get(cellKey + "/" + PLANS),
                headPoints.get(cellKey + "/" + PLANS), basePoints.get(cellKey + "/" + STATEMENTS),
                headPoints.get(cellKey + "/" + STATEMENTS));
        if (plans != null) {
            return notUsed(metric, plans);
        }
        RunRecord.Point bytesBase = basePoints.get(cellKey + "/" + RESPONSE_BYTES);
        RunRecord.Point bytesHead = headPoints.get(cellKey + "/" + RESPONSE_BYTES);
        if (bytesBase == null || bytesHead == null) {
            return notUsed(metric, RESPONSE_BYTES + " was not measured on both sides, so nothing shows the load"
                    + " generator's work unchanged");
        }
        String bytes = moved(bytesBase, bytesHead, MAX_BYTES_CHANGE_PCT);
        if (bytes != null) {
            return notUsed(metric, "the answers' bytes per request moved " + bytes);
        }
        String crossCheck = rule.crossCheckedBy();
        if (crossCheck == null) {
            return new HostGauge(metric, b.byRound(), h.byRound(), null, null, null);
        }
        RunRecord.Point cb = basePoints.get(cellKey + "/" + crossCheck);
        RunRecord.Point ch = headPoints.get(cellKey + "/" + crossCheck);
        if (cb == null || ch == null || !positive(cb.byRound()) || !positive(ch.byRound())) {
            return notUsed(metric, crossCheck + " was not measured on both sides, so nothing shows the gauge's work"
                    + " unchanged");
        }
        // Over the rounds the gauge has on both sides: a slower host stretches both alike.
        double gaugeChange = change(b.byRound(), h.byRound(), b.byRound().keySet(), h.byRound().keySet());
        double crossChange = change(cb.byRound(), ch.byRound(), b.byRound().keySet(), h.byRound().keySet());
        double apart = ((1 + gaugeChange / 100) / (1 + crossChange / 100) - 1) * 100;
        if (Math.abs(apart) > MAX_APART_PCT) {
            return notUsed(metric, String.format(Locale.ROOT, "%s moved %+.1f %% against %s's %+.1f %%, so its work"
                    + " per request changed", metric, gaugeChange, crossCheck, crossChange));
        }
        return new HostGauge(metric, b.byRound(), h.byRound(), crossCheck, crossChange, null);
    }

    private static HostGauge notUsed(String metric, String why) {
        return new HostGauge(metric, Map.of(), Map.of(), null, null, "judged as measured, not relative to " + metric
                + ": " + why);
    }

    /**
     * How far a count moved between the sides beyond {@code limitPct} ("+3.0 %", "from 0"), or null within it. A count
     * that is 0 in some round on one side only moved (the paired change over the other rounds would not show it); 0 in
     * every start on both sides is unchanged.
     */
    private static String moved(RunRecord.Point base, RunRecord.Point head, double limitPct) {
        boolean baseZero = base.byRound().values().stream().anyMatch(v -> v == 0);
        boolean headZero = head.byRound().values().stream().anyMatch(v -> v == 0);
        if (baseZero || headZero) {
            boolean allZero = base.byRound().values().stream().allMatch(v -> v == 0)
                    && head.byRound().values().stream().allMatch(v -> v == 0);
            return allZero ? null : "to or from 0 in a start";
        }
        double change = change(base.byRound(), head.byRound(), base.byRound().keySet(), head.byRound().keySet());
        return Math.abs(change) > limitPct ? String.format(Locale.ROOT, "%+.1f %%", change) : null;
    }

    /**
     * Why the planner's share of the statements shows PostgreSQL's work changed, or null when it agrees within
     * {@code limitPp} percentage points: the mean over the rounds both sides measured of head's share − base's (a
     * round's two starts ran on the same host, hour and data). Not measured on a side (a server with
     * {@code track_planning} off, a record from before the plans were counted) is not shown unchanged.
     */
    static String plansMoved(double limitPp, RunRecord.Point base, RunRecord.Point head,
                             RunRecord.Point baseStatements, RunRecord.Point headStatements) {
        if (base == null || head == null) {
            return PLANS + " was not measured on both sides (pg_stat_statements.track_planning off, or a record from"
                    + " before plans were counted), so nothing shows whether the statements were prepared alike";
        }
        Map<Integer, Double> headPlans = head.byRound();
        Map<Integer, Double> baseCalls = baseStatements == null ? Map.of() : baseStatements.byRound();
        Map<Integer, Double> headCalls = headStatements == null ? Map.of() : headStatements.byRound();
        List<Double> differences = new ArrayList<>();
        base.byRound().forEach((round, b) -> {
            Double h = headPlans.get(round);
            Double bs = baseCalls.get(round);
            Double hs = headCalls.get(round);
            if (h != null && bs != null && hs != null && bs > 0 && hs > 0) {
                differences.add(h / hs - b / bs);
            }
        });
        if (differences.isEmpty()) {
            return PLANS + " was not measured in a round both sides' statements were";
        }
        double moved = 100 * differences.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        return Math.abs(moved) > limitPp
                ? String.format(Locale.ROOT, "%s moved %+.1f points of the statements planned (prepared statements"
                + " added or dropped)", PLANS, moved)
                : null;
    }

    boolean usable() {
        return notUsed == null;
    }

    /** Every round measured on both sides has the gauge on both sides. */
    boolean covers(Set<Integer> baseRounds, Set<Integer> headRounds) {
        for (int round : baseRounds) {
            if (headRounds.contains(round) && !(base.containsKey(round) && head.containsKey(round))) {
                return false;
            }
        }
        return true;
    }

    /** The gauge's paired change in %, over the rounds both sides measured. */
    double changePct(Set<Integer> baseRounds, Set<Integer> headRounds) {
        return change(base, head, baseRounds, headRounds);
    }

    /** exp(mean ln(head/base)) − 1 in %, over the rounds in both sets and both maps; 0 without any. */
    private static double change(Map<Integer, Double> base, Map<Integer, Double> head, Set<Integer> baseRounds,
                                 Set<Integer> headRounds) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (int round : baseRounds) {
            Double b = base.get(round);
            Double h = head.get(round);
            if (headRounds.contains(round) && b != null && h != null && b > 0 && h > 0) {
                x.add(b);
                y.add(h);
            }
        }
        return x.isEmpty() ? 0 : (Math.exp(Descriptive.mean(PairedRatio.logRatios(array(x), array(y)))) - 1) * 100;
    }

    private static double[] array(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).toArray();
    }

    private static boolean positive(Map<Integer, Double> values) {
        return !values.isEmpty() && values.values().stream().allMatch(v -> v > 0);
    }
}
