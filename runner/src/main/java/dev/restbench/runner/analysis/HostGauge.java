package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.PairedRatio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The host's speed in each start's own windows, for a metric the catalogue shows relative to it ({@code adjustedBy}:
 * the service's CPU per request over the load generator's; PairedJudge prints it beside the verdict, not judged). On this project's 2-core cloud box the host ran 15–25 %
 * slower in some starts than in others; in cells that PostgreSQL or the load generator bound, the service's CPU per
 * request and the load generator's moved together (per-round log ratios correlated 0.76–0.99,
 * docs/results/2026-11-27-host-adjusted-cpu.md), so their ratio keeps the stack's cost and drops most of the host's.
 *
 * <p>The load generator's CPU is about two thirds a cost per second, one third per request (its utilisation stayed at
 * 0.24–0.27 of a core while throughput moved 1,400–2,250 req/s): its CPU per request follows throughput as much as
 * the host. Hence the conditions. The service must not bound the cell on either side (a slower service would lower
 * throughput and raise the gauge, absorbing its own regression), and the work per request outside the service must
 * be the same on both sides: SQL statements, rows and pages per request within their minimum effects, the answers'
 * bytes within {@link #MAX_BYTES_CHANGE_PCT}, and PostgreSQL's CPU per request must move with the gauge (within
 * {@link #MAX_APART_PCT}): a change that makes PostgreSQL faster with the same statements (an index) moves throughput
 * and so the gauge, and would read as part CPU; the pages it touched show most such changes directly. The row says
 * "relative to the host's speed" and shows the change as measured beside it.
 *
 * @param metric   the gauge's metric id
 * @param base     the gauge per round, base side
 * @param head     the gauge per round, head side
 * @param notUsed  why the metric is judged as measured instead (null when the gauge is usable)
 */
record HostGauge(String metric, Map<Integer, Double> base, Map<Integer, Double> head, String notUsed) {

    /** The metric whose change means the load generator's work per request changed. */
    static final String RESPONSE_BYTES = "response_bytes_per_req";
    /**
     * The metrics whose change means PostgreSQL's work per request changed: its statements, their rows, and the pages
     * they touched (another plan, an index used or dropped, with the same statements and rows).
     */
    static final List<String> SQL_WORK = List.of("sql_statements_per_req", "sql_rows_per_req", "sql_blocks_per_req");
    /**
     * Beyond this move of the answers' bytes per request the load generator's work per request is another, and no
     * gauge of the host. A start's bytes per request vary by 1–2 % with the data a list returns.
     */
    static final double MAX_BYTES_CHANGE_PCT = 5;
    /** PostgreSQL's CPU per request, the other cost outside the service. */
    static final String POSTGRES_CPU = "postgres_cpu_us_per_req";
    /**
     * How far PostgreSQL's CPU per request may move against the gauge before its work is taken to have changed. Under
     * no change their per-round log ratios differed by 5–9 % (sd) in database-bound cells here, so a 7-round mean by
     * 2–3.5 %.
     */
    static final double MAX_APART_PCT = 5;
    /** The cell bottlenecks (both sides, every start agreeing) under which the gauge is used. */
    static final Set<String> BOUND_ELSEWHERE = Set.of("database", "load-generator");

    /**
     * The gauge; or why it cannot be used although the cell qualifies (the work outside the service changed); null
     * when there is nothing to show: the rule adjusts nothing, the record has no gauge, or something other than
     * PostgreSQL or the load generator bound the cell in a start.
     */
    static HostGauge of(MetricRules rules, String adjusted, String cellKey, Map<String, RunRecord.Point> basePoints,
                        Map<String, RunRecord.Point> headPoints) {
        String metric = rules.rule(adjusted).adjustedBy();
        if (metric == null) {
            return null;
        }
        RunRecord.Point b = basePoints.get(cellKey + "/" + metric);
        RunRecord.Point h = headPoints.get(cellKey + "/" + metric);
        if (b == null || h == null || !positive(b.byRound()) || !positive(h.byRound())) {
            return null; // a record from before the gauge, or a load generator the runner did not start
        }
        RunRecord.Point ab = basePoints.get(cellKey + "/" + adjusted);
        RunRecord.Point ah = headPoints.get(cellKey + "/" + adjusted);
        String bound = ab == null || ah == null ? null : !ab.bottleneck().equals(ah.bottleneck()) ? "mixed"
                : ab.bottleneck();
        if (bound == null || !BOUND_ELSEWHERE.contains(bound)) {
            return null; // judged as measured, as every metric is by default
        }
        for (String work : SQL_WORK) {
            Double change = change(basePoints.get(cellKey + "/" + work), headPoints.get(cellKey + "/" + work));
            if (change != null && Math.abs(change) > rules.minEffectPct(work)) {
                return notUsed(metric, String.format(Locale.ROOT, "%s moved %+.1f %%", work, change));
            }
        }
        Double bytes = change(basePoints.get(cellKey + "/" + RESPONSE_BYTES),
                headPoints.get(cellKey + "/" + RESPONSE_BYTES));
        if (bytes != null && Math.abs(bytes) > MAX_BYTES_CHANGE_PCT) {
            return notUsed(metric, String.format(Locale.ROOT, "the answers' bytes per request moved %+.1f %%", bytes));
        }
        HostGauge gauge = new HostGauge(metric, b.byRound(), h.byRound(), null);
        RunRecord.Point pgBase = basePoints.get(cellKey + "/" + POSTGRES_CPU);
        RunRecord.Point pgHead = headPoints.get(cellKey + "/" + POSTGRES_CPU);
        if (pgBase != null && pgHead != null) {
            // Both are CPU per request outside the service: a slower host stretches them alike. PostgreSQL's moving
            // apart from the gauge means its work per request changed (another plan, an index, fewer round trips),
            // which also moves throughput, and with it the gauge: no measure of the host then.
            double pg = 1 + change(pgBase.byRound(), pgHead.byRound(), gauge.base().keySet(), gauge.head().keySet())
                    / 100;
            double apart = (pg / (1 + gauge.changePct(gauge.base().keySet(), gauge.head().keySet()) / 100) - 1) * 100;
            if (Math.abs(apart) > MAX_APART_PCT) {
                return notUsed(metric, String.format(Locale.ROOT, "PostgreSQL's CPU per request moved %+.1f %%"
                        + " against the gauge's, so its work per request changed", apart));
            }
        }
        return gauge;
    }

    private static HostGauge notUsed(String metric, String why) {
        return new HostGauge(metric, Map.of(), Map.of(), "not shown relative to the host's speed: " + why);
    }

    private static Double change(RunRecord.Point base, RunRecord.Point head) {
        return base == null || head == null ? null
                : change(base.byRound(), head.byRound(), base.byRound().keySet(), head.byRound().keySet());
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
