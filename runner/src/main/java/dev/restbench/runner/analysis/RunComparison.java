package dev.restbench.runner.analysis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Head run vs base run, series by series. Runs with a different environment fingerprint or profile are never
 * compared: every row is then "not-comparable" with the reason. Failed cells and missing series give
 * "inconclusive" rows that say why.
 */
public final class RunComparison {

    /** One row: a metric of a cell (metric is null for a failed cell whose metrics are unknown on both sides). */
    public record Row(String variant, String scenario, String regime, String metric, String unit,
                      Direction direction, MetricComparison result) {

        public String seriesKey() {
            return variant + "/" + scenario + "/" + regime + "/" + metric;
        }
    }

    private final RunRecord base;
    private final RunRecord head;
    private final String notComparableReason;
    private final List<Row> rows;

    private RunComparison(RunRecord base, RunRecord head, String notComparableReason, List<Row> rows) {
        this.base = base;
        this.head = head;
        this.notComparableReason = notComparableReason;
        this.rows = rows;
    }

    /**
     * @param base              null when there is nothing to compare with
     * @param historicalNoisePct series key -> robust sigma (%) of the series' recent comparable run medians
     */
    public static RunComparison compare(RunRecord base, RunRecord head, Map<String, Double> historicalNoisePct,
                                        VerdictRule rule) {
        String notComparable = base == null ? null : notComparableReason(base, head);
        Map<String, RunRecord.Point> basePoints = index(base);
        Map<String, RunRecord.Point> headPoints = index(head);
        Map<String, String> baseFailedCells = failedCells(base);
        Map<String, String> headFailedCells = failedCells(head);

        List<Row> rows = new ArrayList<>();
        // Series in head, then series only in base (removed or failed in head).
        Map<String, RunRecord.Point> all = new LinkedHashMap<>(headPoints);
        basePoints.forEach(all::putIfAbsent);
        for (RunRecord.Point any : all.values()) {
            RunRecord.Point b = basePoints.get(any.seriesKey());
            RunRecord.Point h = headPoints.get(any.seriesKey());
            double[] baseValues = b == null ? null : b.values();
            double[] headValues = h == null ? null : h.values();
            MetricComparison result;
            if (base == null) {
                result = unjudged(baseValues, headValues, Verdict.INCONCLUSIVE, "no comparable baseline");
            } else if (notComparable != null) {
                result = unjudged(baseValues, headValues, Verdict.NOT_COMPARABLE, notComparable);
            } else if (h == null) {
                String failed = headFailedCells.get(any.cellKey());
                result = unjudged(baseValues, null, Verdict.INCONCLUSIVE,
                        failed != null ? "head cell failed: " + failed : "not measured in head");
            } else if (b == null) {
                String failed = baseFailedCells.get(any.cellKey());
                result = unjudged(null, headValues, Verdict.INCONCLUSIVE,
                        failed != null ? "base cell failed: " + failed : "not measured in base");
            } else {
                result = rule.compare(baseValues, headValues, any.direction(),
                        historicalNoisePct == null ? null : historicalNoisePct.get(any.seriesKey()));
            }
            rows.add(new Row(any.variant(), any.scenario(), any.regime(), any.metric(), any.unit(), any.direction(),
                    result));
        }
        // Cells failed on both sides (or failed in head and absent in base) have no metric rows at all yet.
        headFailedCells.forEach((cell, reason) -> {
            boolean covered = rows.stream().anyMatch(r -> (r.variant() + "/" + r.scenario() + "/" + r.regime())
                    .equals(cell));
            if (!covered) {
                String[] parts = cell.split("/", 3);
                rows.add(new Row(parts[0], parts[1], parts[2], null, null, null,
                        unjudged(null, null, Verdict.INCONCLUSIVE, "head cell failed: " + reason)));
            }
        });
        rows.sort(Comparator.comparing(Row::scenario).thenComparing(Row::regime).thenComparing(Row::variant)
                .thenComparing(r -> r.metric() == null ? -1 : MetricCatalog.order(r.metric()))
                .thenComparing(r -> r.metric() == null ? "" : r.metric()));
        return new RunComparison(base, head, notComparable, rows);
    }

    /** Why two runs may not be compared, or null when they may. */
    public static String notComparableReason(RunRecord base, RunRecord head) {
        if (!base.fingerprint().equals(head.fingerprint())) {
            return "different environment (fingerprint " + shortFingerprint(base.fingerprint()) + " vs "
                    + shortFingerprint(head.fingerprint()) + ")";
        }
        if (!base.profile().equals(head.profile())) {
            return "different profile (" + base.profile() + " vs " + head.profile() + ")";
        }
        return null;
    }

    public static String shortFingerprint(String fingerprint) {
        String plain = fingerprint.startsWith("sha256:") ? fingerprint.substring(7) : fingerprint;
        return plain.length() > 12 ? plain.substring(0, 12) : plain;
    }

    private static MetricComparison unjudged(double[] base, double[] head, Verdict verdict, String reason) {
        Stats.Summary b = base == null || base.length == 0 ? null : Stats.summarize(base);
        Stats.Summary h = head == null || head.length == 0 ? null : Stats.summarize(head);
        Double delta = b == null || h == null || b.median() == 0 ? null
                : (h.median() - b.median()) / Math.abs(b.median()) * 100;
        return new MetricComparison(b, h, delta, null, null, verdict, reason);
    }

    private static Map<String, RunRecord.Point> index(RunRecord run) {
        Map<String, RunRecord.Point> points = new LinkedHashMap<>();
        if (run != null) {
            for (RunRecord.Point point : run.points()) {
                if (point.ok() && point.values().length > 0) {
                    points.put(point.seriesKey(), point);
                }
            }
        }
        return points;
    }

    private static Map<String, String> failedCells(RunRecord run) {
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

    public RunRecord base() {
        return base;
    }

    public RunRecord head() {
        return head;
    }

    /** Non-null when the runs were not compared because their environment or profile differ. */
    public String notComparableReason() {
        return notComparableReason;
    }

    public List<Row> rows() {
        return rows;
    }

    public Map<Verdict, Integer> counts() {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (Verdict verdict : Verdict.values()) {
            counts.put(verdict, 0);
        }
        rows.forEach(row -> counts.merge(row.result().verdict(), 1, Integer::sum));
        return counts;
    }

    public boolean hasRegression() {
        return rows.stream().anyMatch(row -> row.result().verdict() == Verdict.REGRESSION);
    }
}
