package dev.restbench.runner.analysis;

import dev.restbench.runner.stats.MultipleComparisons;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A head run judged against a base: one {@link SeriesVerdict} per series, corrected for the number of series judged
 * at once (docs/method.md, "Many series at once"): the primary series (the metrics benchmarks.json declares primary
 * in a regime) with Holm's step-down procedure, which bounds the chance of ANY false alarm among them; the others
 * with Benjamini–Hochberg, which bounds the expected share of false alarms among those flagged. The headline and
 * {@code --fail-on-regression} count the primary series and failed cells only; secondary changes are listed.
 */
public final class Judgement {

    /**
     * How a judgement was reached, for the reader: the method, its level and its minimum effect (the one most metrics
     * have; {@code minEffectExceptions} the metrics with another, by id).
     */
    public record Method(String name, double alpha, double minEffectPct, String detail,
                         Map<String, Double> minEffectExceptions) {

        public Method {
            minEffectExceptions = Collections.unmodifiableMap(new LinkedHashMap<>(minEffectExceptions));
        }

        public Method(String name, double alpha, double minEffectPct, String detail) {
            this(name, alpha, minEffectPct, detail, Map.of());
        }
    }

    private final RunRecord base;
    private final RunRecord head;
    private final String notComparableReason;
    private final String withheldReason;
    private final Method method;
    private final List<SeriesVerdict> rows;

    Judgement(RunRecord base, RunRecord head, String notComparableReason, Method method, List<SeriesVerdict> rows) {
        this(base, head, notComparableReason, null, method, rows);
    }

    /**
     * @param withheldReason why the host-dependent series were withheld while the host-independent ones (counts of
     *                       work) were judged; null when nothing was withheld
     */
    Judgement(RunRecord base, RunRecord head, String notComparableReason, String withheldReason, Method method,
              List<SeriesVerdict> rows) {
        this.base = base;
        this.head = head;
        this.notComparableReason = notComparableReason;
        this.withheldReason = withheldReason;
        this.method = method;
        this.rows = List.copyOf(rows);
    }

    /** The first reason two runs may not be compared, or null when they may. */
    public static String notComparableReason(RunRecord base, RunRecord head) {
        if (!base.fingerprint().equals(head.fingerprint())) {
            return "different environment or method (fingerprint " + shortFingerprint(base.fingerprint()) + " vs "
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

    /**
     * Applies the corrections and the decision rule to rows that carry their raw two-sided p-values. A row is a
     * regression or an improvement when its adjusted p-value is at most alpha AND the change is at least the minimum
     * effect; "no change" when its interval (at level 1 − 2α, the two one-sided tests) lies inside ± the minimum
     * effect; else inconclusive, saying what the run could have detected. Rows without a test keep their verdict.
     *
     * <p>One minimum effect for every metric, two-sided tests (the history verdict).
     */
    static List<SeriesVerdict> decide(List<SeriesVerdict> raw, double alpha, double minEffectPct) {
        return decide(raw, alpha, MetricRules.uniform(minEffectPct), false);
    }

    /**
     * As above, each row with its metric's minimum effect. {@code oneSided}: each row's p-value is one-sided, for the
     * direction its change took (the A/B), and regressions and improvements are two families of their own, each
     * corrected at alpha over all the rows of its kind (a row that moved the other way has p ≥ ½ for it, so it is
     * counted as 1): Holm then bounds the chance of any false regression among the primary series at alpha, and
     * separately of any false improvement. Two-sided tests at alpha spend half of it on each direction.
     */
    static List<SeriesVerdict> decide(List<SeriesVerdict> raw, double alpha, MetricRules rules, boolean oneSided) {
        List<SeriesVerdict> out = new ArrayList<>(raw);
        for (boolean primary : List.of(true, false)) {
            List<Integer> tested = new ArrayList<>();
            for (int i = 0; i < out.size(); i++) {
                if (out.get(i).primary() == primary && out.get(i).pValue() != null) {
                    tested.add(i);
                }
            }
            double[] regression = new double[tested.size()];
            double[] improvement = new double[tested.size()];
            for (int k = 0; k < tested.size(); k++) {
                SeriesVerdict row = out.get(tested.get(k));
                boolean worse = worse(row);
                regression[k] = !oneSided || worse ? row.pValue() : 1;
                improvement[k] = !oneSided || !worse ? row.pValue() : 1;
            }
            double[] adjustedRegression = adjust(regression, primary);
            double[] adjustedImprovement = oneSided ? adjust(improvement, primary) : adjustedRegression;
            for (int k = 0; k < tested.size(); k++) {
                SeriesVerdict row = out.get(tested.get(k));
                double adjusted = worse(row) ? adjustedRegression[k] : adjustedImprovement[k];
                String correction = primary ? "Holm" : "BH";
                out.set(tested.get(k), PairedJudge.FAILED_STARTS.equals(row.metric())
                        ? failures(row, adjusted, alpha, correction)
                        : verdict(row, adjusted, alpha, rules.minEffectPct(row.metric()), correction));
            }
        }
        return out;
    }

    /** Whether a row's change is for the worse: its metric's direction, or for failed starts the head's excess. */
    private static boolean worse(SeriesVerdict row) {
        if (PairedJudge.FAILED_STARTS.equals(row.metric())) {
            return row.verdict() == Verdict.FAILED;
        }
        return row.changePct() != null && row.direction().isWorse(row.changePct());
    }

    /** A cell's failed starts, tested round by round (PairedJudge): failed (or improved) only with evidence. */
    private static SeriesVerdict failures(SeriesVerdict row, double adjusted, double alpha, String correction) {
        if (adjusted <= alpha) {
            return row.with(adjusted, row.verdict(), String.format(Locale.ROOT, "%s; p=%s after %s", row.reason(),
                    p(adjusted), correction));
        }
        return row.with(adjusted, Verdict.INCONCLUSIVE, String.format(Locale.ROOT, "%s; not evidence of a change"
                + " (p=%s after %s)", row.reason(), p(adjusted), correction));
    }

    private static double[] adjust(double[] p, boolean primary) {
        return primary ? MultipleComparisons.holm(p) : MultipleComparisons.benjaminiHochberg(p);
    }

    private static SeriesVerdict verdict(SeriesVerdict row, double adjusted, double alpha, double minEffectPct,
                                         String correction) {
        double change = row.changePct();
        boolean significant = adjusted <= alpha;
        // A row with an interval and a reason carries a note on how it was measured (PairedJudge: adjusted for the
        // host's speed); the verdict's own words follow it.
        String note = row.lowPct() != null ? row.reason() : null;
        if (significant && Math.abs(change) >= minEffectPct) {
            Verdict v = row.direction().isWorse(change) ? Verdict.REGRESSION : Verdict.IMPROVEMENT;
            return row.with(adjusted, v, join(note, String.format(Locale.ROOT, "p=%s after %s", p(adjusted),
                    correction)));
        }
        if (row.lowPct() != null && row.highPct() != null && row.lowPct() > -minEffectPct
                && row.highPct() < minEffectPct) {
            return row.with(adjusted, Verdict.NO_CHANGE, note);
        }
        if (significant) {
            return row.with(adjusted, Verdict.INCONCLUSIVE, join(note, String.format(Locale.ROOT,
                    "%+.1f %% is significant (p=%s after %s) but below the %s %% minimum effect", change, p(adjusted),
                    correction, number(minEffectPct))));
        }
        if (row.lowPct() == null && row.reason() != null) {
            // No interval, and the row says why (PairedJudge: no spread between rounds).
            return row.with(adjusted, Verdict.INCONCLUSIVE, String.format(Locale.ROOT, "%s; p=%s after %s",
                    row.reason(), p(adjusted), correction));
        }
        // Beyond ±1000 % a figure only says "far too few pairs" (with n=2 it can have twenty digits).
        String could = row.detectablePct() == null || !Double.isFinite(row.detectablePct()) ? "nothing"
                : row.detectablePct() > 1000 ? "only changes beyond ±1000 %"
                : "±" + number(row.detectablePct()) + " %";
        return row.with(adjusted, Verdict.INCONCLUSIVE, join(note, String.format(Locale.ROOT,
                "could detect %s with n=%d; interval %s…%s %%", could, row.n(), signed(row.lowPct()),
                signed(row.highPct()))));
    }

    private static String join(String note, String text) {
        return note == null ? text : note + "; " + text;
    }

    private static String p(double p) {
        return p < 0.001 ? String.format(Locale.ROOT, "%.1e", p) : String.format(Locale.ROOT, "%.3f", p);
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.1f", value);
    }

    private static String signed(Double pct) {
        return pct == null || !Double.isFinite(pct) ? "?" : String.format(Locale.ROOT, "%+.1f", pct);
    }

    public RunRecord base() {
        return base;
    }

    public RunRecord head() {
        return head;
    }

    public String notComparableReason() {
        return notComparableReason;
    }

    /** Why the timings' verdicts were withheld while the counts were judged; null when nothing was withheld. */
    public String withheldReason() {
        return withheldReason;
    }

    public Method method() {
        return method;
    }

    /** Sorted by scenario, regime, variant, then the metric catalogue's order. */
    public List<SeriesVerdict> rows() {
        List<SeriesVerdict> sorted = new ArrayList<>(rows);
        sorted.sort(Comparator.comparing(SeriesVerdict::scenario).thenComparing(SeriesVerdict::regime)
                .thenComparing(SeriesVerdict::variant).thenComparing(r -> MetricCatalog.order(r.metric()))
                .thenComparing(SeriesVerdict::metric));
        return sorted;
    }

    public Map<Verdict, Integer> counts(boolean primary) {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (Verdict verdict : Verdict.values()) {
            counts.put(verdict, 0);
        }
        rows.stream().filter(r -> r.primary() == primary).forEach(r -> counts.merge(r.verdict(), 1, Integer::sum));
        return counts;
    }

    /** A primary regression or a failed head cell: what fails --fail-on-regression. */
    public boolean hasRegression() {
        return rows.stream().anyMatch(r -> r.verdict() == Verdict.FAILED
                || r.primary() && r.verdict() == Verdict.REGRESSION);
    }

    /**
     * The headline's status: red for a primary regression or a failed cell; grey when a primary series could not be
     * decided (a green would claim what the run could not see); green for improvements; a check mark only when
     * every primary series is a "no change" (its interval inside the minimum effect).
     */
    public Status status() {
        if (notComparableReason != null) {
            return Status.NOT_COMPARABLE;
        }
        if (hasRegression()) {
            return Status.REGRESSION;
        }
        if (withheldReason != null) {
            // The counts alone said nothing is wrong; what the timings would say is unknown.
            return Status.NOT_COMPARABLE;
        }
        Map<Verdict, Integer> primary = counts(true);
        int judged = rows.stream().filter(SeriesVerdict::primary).toList().size();
        if (judged == 0 || primary.get(Verdict.NO_VERDICT) == judged) {
            return Status.NO_VERDICT;
        }
        if (primary.get(Verdict.INCONCLUSIVE) > 0) {
            return Status.INCONCLUSIVE;
        }
        if (primary.get(Verdict.IMPROVEMENT) > 0) {
            return Status.IMPROVEMENT;
        }
        return Status.NO_CHANGE;
    }

    public enum Status {
        REGRESSION("🔴", "Regression"),
        INCONCLUSIVE("⚪", "Inconclusive"),
        IMPROVEMENT("🟢", "Improvement, no regression"),
        NO_CHANGE("✅", "No change"),
        NO_VERDICT("➖", "No verdict"),
        NOT_COMPARABLE("⛔", "Not comparable");

        private final String icon;
        private final String label;

        Status(String icon, String label) {
            this.icon = icon;
            this.label = label;
        }

        public String icon() {
            return icon;
        }

        public String label() {
            return label;
        }
    }
}
