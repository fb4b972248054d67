package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.analysis.Verdict;
import dev.restbench.runner.io.TextTable;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static dev.restbench.runner.io.TextTable.Align.LEFT;
import static dev.restbench.runner.io.TextTable.Align.RIGHT;

/**
 * The pull-request comment (also the job summary and the terminal output of {@code compare} and {@code ab}), made to
 * fit on a screen: the headline; one compact table of what needs a look (primary series that are not "no change",
 * failed cells, secondary series that changed significantly), at most {@link #MAX_ROWS} rows; everything else
 * collapsed; a hidden marker the workflow uses to update one comment in place.
 */
public final class PrComment {

    public static final String MARKER = "<!-- restbench-pr-comment -->";
    /** Rows of the visible table; the rest goes into the collapsed details. */
    static final int MAX_ROWS = 12;

    /**
     * Links shown in the comment; null when unknown. {@code flameGraphs}: the A/B run's base ↔ head pages by cell key
     * (empty without --flamegraphs), their paths relative to the run directory {@code flameGraphDir} (the local
     * directory, or in CI the run's folder inside the results artifact).
     */
    public record Links(String reportsArtifactUrl, String siteUrl, String flameGraphDir,
                        Map<String, FlameGraphComparison.Pair> flameGraphs) {

        public Links(String reportsArtifactUrl, String siteUrl) {
            this(reportsArtifactUrl, siteUrl, null, Map.of());
        }

        public Links withFlameGraphs(String runDir, Map<String, FlameGraphComparison.Pair> pairs) {
            return new Links(reportsArtifactUrl, siteUrl, runDir, pairs);
        }

        /** From RESTBENCH_REPORTS_URL / RESTBENCH_SITE_URL, or, in GitHub Actions, the run page for the artifact. */
        public static Links fromEnvironment(String reportsUrl, String siteUrl) {
            String reports = firstNonBlank(reportsUrl, System.getenv("RESTBENCH_REPORTS_URL"));
            if (reports == null && System.getenv("GITHUB_RUN_ID") != null) {
                reports = System.getenv("GITHUB_SERVER_URL") + "/" + System.getenv("GITHUB_REPOSITORY")
                        + "/actions/runs/" + System.getenv("GITHUB_RUN_ID");
            }
            return new Links(reports, firstNonBlank(siteUrl, System.getenv("RESTBENCH_SITE_URL")));
        }
    }

    private PrComment() {
    }

    /** @param context extra lines under the headline (e.g. the history comparison beside an A/B verdict) */
    public static String render(Judgement judgement, Links links, List<String> context) {
        StringBuilder out = new StringBuilder();
        out.append(MARKER).append('\n');
        out.append(headline(judgement)).append("\n\n");
        out.append(subtitle(judgement)).append("\n\n");
        for (String line : context) {
            out.append(line).append("\n\n");
        }
        List<SeriesVerdict> rows = judgement.rows();
        List<SeriesVerdict> attention = new ArrayList<>(rows.stream().filter(PrComment::needsAttention)
                .sorted(Comparator.comparingInt(PrComment::severity)
                        .thenComparing(r -> -Math.abs(r.changePct() == null ? 0 : r.changePct())))
                .toList());
        if (judgement.notComparableReason() == null) {
            if (attention.isEmpty() && judgement.withheldReason() != null) {
                out.append("Only the counts of SQL work were judged, and none changed beyond its minimum effect; every"
                        + " other series was withheld.\n\n");
            } else if (attention.isEmpty()) {
                out.append(quietSummary(rows)).append("\n\n");
            } else {
                out.append(table(attention.subList(0, Math.min(MAX_ROWS, attention.size()))));
                if (attention.size() > MAX_ROWS) {
                    out.append("\n…and ").append(attention.size() - MAX_ROWS)
                            .append(" more in the details below.\n");
                }
                out.append('\n');
                flameGraphs(attention, links).ifPresent(line -> out.append(line).append("\n\n"));
            }
        }
        long primary = rows.stream().filter(SeriesVerdict::primary).count();
        out.append("<details><summary>All ").append(primary).append(" primary series</summary>\n\n")
                .append(table(rows.stream().filter(SeriesVerdict::primary).toList())).append("\n</details>\n");
        long secondary = rows.size() - primary;
        out.append("<details><summary>All ").append(secondary).append(" secondary series</summary>\n\n")
                .append(table(rows.stream().filter(r -> !r.primary()).toList())).append("\n</details>\n");
        out.append(details(judgement, links));
        return out.toString();
    }

    /** Names the repository's own variants, scenarios and regimes use; anything else from a record is not printed. */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[a-z0-9][a-z0-9-]{0,80}");

    /**
     * One line under the table: for every cell with a regressed, improved or failed series, its base ↔ head flame
     * graph page (side by side, with a differential table) in the results artifact — when the A/B was profiled.
     */
    private static java.util.Optional<String> flameGraphs(List<SeriesVerdict> attention, Links links) {
        if (links.flameGraphs().isEmpty() || links.flameGraphDir() == null
                || !links.flameGraphDir().matches("[A-Za-z0-9._/-]{1,300}")) {
            return java.util.Optional.empty();
        }
        List<String> pages = attention.stream()
                .filter(r -> r.verdict() == Verdict.REGRESSION || r.verdict() == Verdict.IMPROVEMENT
                        || r.verdict() == Verdict.FAILED)
                .map(SeriesVerdict::cellKey).distinct()
                .map(key -> links.flameGraphs().get(key))
                .filter(p -> p != null && NAME.matcher(p.variant()).matches() && NAME.matcher(p.scenario()).matches()
                        && NAME.matcher(p.regime()).matches())
                .map(p -> p.variant() + " " + p.scenario() + (p.regime().equals("capacity") ? ""
                        : " (" + p.regime() + ")") + ": `" + p.page() + "`")
                .toList();
        if (pages.isEmpty()) {
            return java.util.Optional.empty();
        }
        String where = links.reportsArtifactUrl() == null ? "`" + links.flameGraphDir() + "/`"
                : "`" + links.flameGraphDir() + "/` in the [run's results artifact](" + links.reportsArtifactUrl() + ")";
        return java.util.Optional.of("Flame graphs, base ↔ head side by side with a differential table, under " + where
                + ": " + String.join(" · ", pages.subList(0, Math.min(pages.size(), MAX_ROWS)))
                + (pages.size() > MAX_ROWS ? " …" : ""));
    }

    /** The first line: status, what drove it, and the two commits. */
    public static String headline(Judgement judgement) {
        Judgement.Status status = judgement.status();
        String text = "**" + status.icon() + " " + status.label() + "**";
        if (judgement.notComparableReason() != null) {
            return text + " — " + judgement.notComparableReason();
        }
        if (judgement.withheldReason() != null && status != Judgement.Status.REGRESSION) {
            return text + " — " + judgement.withheldReason() + " (counts of SQL work judged: no regression)";
        }
        Map<Verdict, Integer> primary = judgement.counts(true);
        Map<Verdict, Integer> secondary = judgement.counts(false);
        List<String> parts = new ArrayList<>();
        int failed = primary.get(Verdict.FAILED) + secondary.get(Verdict.FAILED);
        add(parts, primary.get(Verdict.REGRESSION), "primary regression", "primary regressions");
        add(parts, failed, "failed cell", "failed cells");
        add(parts, primary.get(Verdict.IMPROVEMENT), "primary improvement", "primary improvements");
        add(parts, primary.get(Verdict.INCONCLUSIVE), "primary series undecided", "primary series undecided");
        add(parts, primary.get(Verdict.NO_CHANGE), "primary series unchanged", "primary series unchanged");
        add(parts, primary.get(Verdict.NO_VERDICT), "primary series without a verdict",
                "primary series without a verdict");
        int secondaryChanged = secondary.get(Verdict.REGRESSION) + secondary.get(Verdict.IMPROVEMENT);
        if (secondaryChanged > 0) {
            parts.add(secondaryChanged + " secondary series changed");
        }
        long unsteady = judgement.rows().stream().filter(r -> !r.steady()).map(SeriesVerdict::cellKey).distinct()
                .count();
        if (unsteady > 0) {
            parts.add("⚠ " + unsteady + " unsteady cell" + (unsteady == 1 ? "" : "s"));
        }
        if (judgement.withheldReason() != null) {
            parts.add("the other series " + judgement.withheldReason());
        }
        return text + " — " + String.join(", ", parts);
    }

    private static String subtitle(Judgement judgement) {
        RunRecord head = judgement.head();
        RunRecord base = judgement.base();
        String runs = base == null ? "head `" + shortSha(head.commitId()) + "`, no baseline"
                : "base `" + shortSha(base.commitId()) + "` → head `" + shortSha(head.commitId()) + "`";
        Judgement.Method method = judgement.method();
        return runs + ", profile " + head.profile() + "; " + method.name() + ": " + method.detail();
    }

    /** When nothing needs a look: one sentence instead of a table. */
    private static String quietSummary(List<SeriesVerdict> rows) {
        List<SeriesVerdict> primary = rows.stream().filter(SeriesVerdict::primary).toList();
        SeriesVerdict largest = primary.stream().filter(r -> r.changePct() != null)
                .max(Comparator.comparingDouble(r -> Math.abs(r.changePct()))).orElse(null);
        return "All " + primary.size() + " primary series: no change beyond the minimum effect"
                + (largest == null ? "." : " (largest: " + signedPct(largest.changePct()) + " "
                + largest.variant() + " " + largest.scenario() + " " + largest.metric() + ").");
    }

    private static boolean needsAttention(SeriesVerdict row) {
        return switch (row.verdict()) {
            case FAILED -> true;
            case REGRESSION, IMPROVEMENT -> true;
            case INCONCLUSIVE -> row.primary();
            default -> false;
        };
    }

    private static int severity(SeriesVerdict row) {
        return switch (row.verdict()) {
            case FAILED -> 0;
            case REGRESSION -> row.primary() ? 1 : 3;
            case IMPROVEMENT -> row.primary() ? 2 : 4;
            default -> 5;
        };
    }

    private static String table(List<SeriesVerdict> rows) {
        if (rows.isEmpty()) {
            return "(none)\n";
        }
        TextTable table = TextTable.of(List.of("variant", "scenario", "metric", "base", "head", "change (interval)",
                "verdict"), List.of(LEFT, LEFT, LEFT, RIGHT, RIGHT, RIGHT, LEFT));
        for (SeriesVerdict row : rows) {
            table.row(row.variant(),
                    row.scenario() + (row.regime().equals("capacity") || row.regime().equals("-") ? ""
                            : " (" + row.regime() + ")"),
                    row.metric() + (row.unit() == null || row.unit().isEmpty() ? "" : " (" + row.unit() + ")"),
                    side(row.base()), side(row.head()), change(row), verdict(row));
        }
        return table.markdown();
    }

    private static String change(SeriesVerdict row) {
        if (row.changePct() == null) {
            return "—";
        }
        String interval = row.lowPct() == null || row.highPct() == null ? ""
                : " (" + signedPct(row.lowPct()) + "…" + signedPct(row.highPct()) + ")";
        return signedPct(row.changePct()) + interval;
    }

    private static String verdict(SeriesVerdict row) {
        String steady = row.steady() ? "" : " ⚠ unsteady";
        String reason = row.reason() == null ? "" : ": " + row.reason(); // the table escapes its cells
        return switch (row.verdict()) {
            case REGRESSION -> "🔴 regression" + reason + steady;
            case IMPROVEMENT -> "🟢 improvement" + reason + steady;
            case NO_CHANGE -> "✅ no change" + reason + steady;
            case INCONCLUSIVE -> "⚪ undecided" + reason + steady;
            case FAILED -> "🔴 failed" + reason;
            case NO_VERDICT -> "➖ no verdict" + reason;
            case NOT_COMPARABLE -> "⛔ not comparable";
        };
    }

    private static String details(Judgement judgement, Links links) {
        RunRecord head = judgement.head();
        RunRecord base = judgement.base();
        StringBuilder out = new StringBuilder();
        out.append("<details><summary>Method, environment, links</summary>\n\n");
        out.append("- head run: `").append(head.runId()).append("`");
        if (base != null && !base.runId().equals(head.runId())) {
            out.append(", base run: `").append(base.runId()).append("`");
        }
        out.append('\n');
        Judgement.Method method = judgement.method();
        List<String> exceptions = new ArrayList<>();
        method.minEffectExceptions().forEach((metric, pct) -> exceptions.add(metric + " " + effect(pct) + " %"));
        out.append(String.format(Locale.ROOT, "- method: %s — %s; α = %.3g, minimum effect %s %%%s; primary series"
                        + " (benchmarks.json) under Holm, the others under Benjamini–Hochberg; intervals at 1 − 2α"
                        + " (docs/method.md)%n", method.name(), method.detail(), method.alpha(),
                effect(method.minEffectPct()), exceptions.isEmpty() ? "" : " (" + String.join(", ", exceptions) + ")"));
        out.append("- environment: ").append(environment(head.environment())).append('\n');
        if (links.reportsArtifactUrl() != null) {
            out.append("- Gatling reports and flame graphs: ").append(links.reportsArtifactUrl()).append('\n');
        }
        if (links.siteUrl() != null) {
            out.append("- history and charts: ").append(links.siteUrl()).append('\n');
        }
        out.append("\n</details>\n");
        return out.toString();
    }

    private static String environment(JsonNode env) {
        List<String> parts = new ArrayList<>();
        for (String field : RunRecord.ENVIRONMENT_SHOWN) {
            JsonNode value = env.path(field);
            if (!value.isMissingNode() && !value.isNull()) {
                parts.add(field + " " + value.asText());
            }
        }
        if (env.path(RunRecord.PINNING).isObject()) {
            List<String> pins = new ArrayList<>();
            env.path(RunRecord.PINNING).properties().forEach(e -> pins.add(e.getKey() + " " + (e.getValue().asText()
                    .equals("external") ? "external" : "CPU " + e.getValue().asText())));
            parts.add("pinning " + String.join(", ", pins));
        }
        parts.add("fingerprint `" + Judgement.shortFingerprint(env.path(RunRecord.FINGERPRINT).asText()) + "`");
        return String.join(", ", parts);
    }

    private static String side(SeriesVerdict.Side side) {
        return side == null ? "—" : number(side.value()) + " (n=" + side.starts() + ")";
    }

    private static void add(List<String> parts, int count, String one, String many) {
        if (count > 0) {
            parts.add(count + " " + (count == 1 ? one : many));
        }
    }

    private static String signedPct(double pct) {
        return String.format(Locale.ROOT, "%+.1f %%", pct);
    }

    /** Three significant figures or whole numbers with thousands separators. */
    /** A minimum effect as benchmarks.json states it: 5, 1, 1.5. */
    private static String effect(double pct) {
        return pct == Math.rint(pct) ? String.format(Locale.ROOT, "%.0f", pct) : Double.toString(pct);
    }

    static String number(double value) {
        double magnitude = Math.abs(value);
        if (magnitude >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", value);
        }
        if (magnitude >= 100) {
            return String.format(Locale.ROOT, "%.0f", value);
        }
        if (magnitude >= 10) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        if (magnitude >= 1 || magnitude == 0) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        return String.format(Locale.ROOT, "%.3g", value);
    }

    private static String shortSha(String sha) {
        return sha.length() > 7 ? sha.substring(0, 7) : sha;
    }

    private static String firstNonBlank(String... values) {
        for (String value : values) {
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }
}
