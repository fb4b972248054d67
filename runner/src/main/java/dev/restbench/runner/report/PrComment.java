package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.runner.analysis.MetricComparison;
import dev.restbench.runner.analysis.RunComparison;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.Stats;
import dev.restbench.runner.analysis.Verdict;
import dev.restbench.runner.analysis.VerdictRule;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The pull-request comment (also the job summary and the terminal output of {@code compare}): a one-line verdict,
 * one table per scenario, collapsed details, and a hidden marker the workflow uses to update one comment in place.
 */
public final class PrComment {

    public static final String MARKER = "<!-- restbench-pr-comment -->";

    /** Links shown in the details; null when unknown. */
    public record Links(String reportsArtifactUrl, String siteUrl) {
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

    /**
     * @param context extra lines shown under the verdict (e.g. the history comparison beside an A/B verdict)
     */
    public static String render(RunComparison comparison, Links links, List<String> context) {
        StringBuilder out = new StringBuilder();
        out.append(MARKER).append('\n');
        out.append(headline(comparison)).append("\n\n");
        for (String line : context) {
            out.append(line).append("\n\n");
        }
        Map<String, List<RunComparison.Row>> byScenario = new LinkedHashMap<>();
        for (RunComparison.Row row : comparison.rows()) {
            byScenario.computeIfAbsent(row.scenario(), k -> new ArrayList<>()).add(row);
        }
        byScenario.forEach((scenario, rows) -> {
            out.append("#### ").append(scenario).append("\n\n");
            out.append("| variant | regime | metric | base | head | Δ % | verdict |\n");
            out.append("|---|---|---|--:|--:|--:|---|\n");
            for (RunComparison.Row row : rows) {
                MetricComparison result = row.result();
                out.append("| ").append(row.variant())
                        .append(" | ").append(row.regime())
                        .append(" | ").append(row.metric() == null ? "—" : row.metric()
                                + (row.unit() == null || row.unit().isEmpty() ? "" : " (" + row.unit() + ")"))
                        .append(" | ").append(summary(result.base()))
                        .append(" | ").append(summary(result.head()))
                        .append(" | ").append(result.deltaPct() == null ? "—" : signedPct(result.deltaPct()))
                        .append(" | ").append(verdictCell(result))
                        .append(" |\n");
            }
            out.append('\n');
        });
        out.append(details(comparison, links));
        return out.toString();
    }

    static String headline(RunComparison comparison) {
        RunRecord head = comparison.head();
        RunRecord base = comparison.base();
        String runs = base == null
                ? "head `" + shortSha(head.commitId()) + "`, no baseline"
                : "base `" + shortSha(base.commitId()) + "` → head `" + shortSha(head.commitId()) + "`";
        if (comparison.notComparableReason() != null) {
            return "**⛔ Not comparable:** " + comparison.notComparableReason() + " (" + runs + ")";
        }
        Map<Verdict, Integer> counts = comparison.counts();
        String status;
        if (counts.get(Verdict.REGRESSION) > 0) {
            status = "🔴 Regression";
        } else if (counts.get(Verdict.IMPROVEMENT) > 0) {
            status = "🟢 Improvement, no regression";
        } else if (counts.get(Verdict.WITHIN_NOISE) > counts.get(Verdict.INCONCLUSIVE)) {
            // Only when most series could be judged: "no change" must not stand for "could not tell".
            status = "✅ No change beyond noise";
        } else {
            status = "⚪ Inconclusive";
        }
        List<String> parts = new ArrayList<>();
        for (Verdict verdict : List.of(Verdict.REGRESSION, Verdict.IMPROVEMENT, Verdict.WITHIN_NOISE,
                Verdict.INCONCLUSIVE)) {
            int count = counts.get(verdict);
            if (count > 0) {
                String label = verdict.json().replace('-', ' ');
                boolean plural = count > 1 && (verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT);
                parts.add(count + " " + label + (plural ? "s" : ""));
            }
        }
        return "**" + status + "** — " + String.join(", ", parts) + " (" + runs + ", profile "
                + head.profile() + ")";
    }

    private static String details(RunComparison comparison, Links links) {
        RunRecord head = comparison.head();
        RunRecord base = comparison.base();
        StringBuilder out = new StringBuilder();
        out.append("<details><summary>Details: environment, repetitions, method</summary>\n\n");
        out.append("- head run: `").append(head.runId()).append("` (profile ").append(head.profile()).append(")\n");
        if (base != null) {
            out.append("- base run: `").append(base.runId()).append("` (profile ").append(base.profile())
                    .append(")\n");
        }
        out.append("- repetitions per cell: ").append(repetitions(comparison)).append('\n');
        out.append("- environment (head): ").append(environment(head.environment())).append('\n');
        if (base != null && !base.fingerprint().equals(head.fingerprint())) {
            out.append("- environment (base): ").append(environment(base.environment())).append('\n');
        }
        out.append("- verdict: a change is flagged when the exact Mann-Whitney U test gives p < ")
                .append(VerdictRule.ALPHA)
                .append(" and |Δ| exceeds the noise band (the largest of ").append(fmt(VerdictRule.MIN_EFFECT_PCT))
                .append(" %, ").append(VerdictRule.BAND_SIGMAS).append(" standard errors of the median difference, ")
                .append(VerdictRule.BAND_SIGMAS).append(" σ of the series' recent run medians);")
                .append(" runs with a different environment fingerprint or profile are never compared")
                .append(" (docs/verdicts.md)\n");
        if (links.reportsArtifactUrl() != null) {
            out.append("- Gatling reports: ").append(links.reportsArtifactUrl()).append('\n');
        }
        if (links.siteUrl() != null) {
            out.append("- history and charts: ").append(links.siteUrl()).append('\n');
        }
        out.append("\n</details>\n");
        return out.toString();
    }

    private static String repetitions(RunComparison comparison) {
        TreeSet<String> sizes = new TreeSet<>();
        for (RunComparison.Row row : comparison.rows()) {
            MetricComparison r = row.result();
            if (r.base() != null || r.head() != null) {
                sizes.add("n=" + (r.base() == null ? "–" : r.base().n()) + "/" + (r.head() == null ? "–"
                        : r.head().n()));
            }
        }
        return sizes.isEmpty() ? "none" : String.join(", ", sizes) + " (base/head)";
    }

    private static String environment(JsonNode env) {
        List<String> parts = new ArrayList<>();
        for (String field : List.of("cpuModel", "cpuCount", "governor", "os", "kernel", "jdk", "postgres")) {
            JsonNode value = env.path(field);
            if (!value.isMissingNode() && !value.isNull()) {
                parts.add(field + " " + value.asText());
            }
        }
        if (env.path("pinning").isObject()) {
            List<String> pins = new ArrayList<>();
            // "external": a database or service the runner did not start, so did not pin.
            env.path("pinning").properties().forEach(e -> pins.add(e.getKey() + (e.getValue().asText().equals("external")
                    ? " external" : "→cpu " + e.getValue().asText())));
            parts.add("pinning " + String.join(" ", pins));
        }
        parts.add("fingerprint `" + RunComparison.shortFingerprint(env.path("fingerprint").asText()) + "`");
        return String.join(", ", parts);
    }

    private static String verdictCell(MetricComparison result) {
        String band = result.noiseBandPct() == null ? "" : " (band ±" + fmt(result.noiseBandPct()) + " %)";
        return switch (result.verdict()) {
            case REGRESSION -> "🔴 regression" + band;
            case IMPROVEMENT -> "🟢 improvement" + band;
            case WITHIN_NOISE -> "✅ within noise" + band;
            case INCONCLUSIVE -> "⚪ inconclusive" + (result.reason() == null ? band : ": " + escape(result.reason()));
            case NOT_COMPARABLE -> "⛔ not comparable";
        };
    }

    private static String summary(Stats.Summary summary) {
        if (summary == null) {
            return "—";
        }
        // One value has no spread: "± 0.0 %" would claim a precision nobody measured.
        String spread = summary.n() > 1 && Double.isFinite(summary.spreadPct())
                ? " ± " + fmt(summary.spreadPct() / 2) + " %" : "";
        return number(summary.median()) + spread + " (n=" + summary.n() + ")";
    }

    private static String signedPct(double pct) {
        return (pct > 0 ? "+" : "") + fmt(pct);
    }

    /** Three significant figures or whole numbers with thousands separators. */
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

    private static String fmt(double pct) {
        return String.format(Locale.ROOT, "%.1f", pct);
    }

    private static String shortSha(String sha) {
        return sha.length() > 7 ? sha.substring(0, 7) : sha;
    }

    private static String escape(String text) {
        return text.replace("|", "\\|").replace("\n", " ");
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
