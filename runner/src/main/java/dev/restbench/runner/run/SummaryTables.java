package dev.restbench.runner.run;

import dev.restbench.runner.stats.Summary;
import dev.restbench.manifest.Manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The reference report's two tables — scenario × measure × variant, and variant × resources — plus the startup
 * table, each figure as "median ±spread% (n)". Rendered as Markdown (summary.md) or aligned plain text (console).
 */
final class SummaryTables {
    /** The first table's measures, in the reference report's order. */
    private static final List<String> MEASURES = List.of("throughput", "req_per_cpu_s", "latency_p50", "latency_p95",
            "latency_p99", "latency_max", "error_pct", "cpu_us_per_req", "alloc_bytes_per_req");
    private static final List<String> RESOURCES = List.of("cpu_us_per_req", "alloc_bytes_per_req", "heap_mean_mb",
            "heap_peak_mb", "gc_ms_per_s", "jit_cpu_ms_per_s", "threads_peak", "hikari_active_mean", "hikari_active_peak");
    private static final List<String> STARTUP = List.of("time_to_ready_ms", "rss_after_start_mb",
            "heap_after_start_mb", "classes_loaded", "live_threads");

    /** @param labelColumns leading text columns (left-aligned); the figures after them are right-aligned */
    private record Table(String title, int labelColumns, List<String> header, List<List<String>> rows) {
    }

    private final List<Table> tables = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();

    SummaryTables(Manifest manifest, RunSelection selection, RunResults results) {
        List<RunResults.CellSummary> cells = results.cells();
        List<String> variants = selection.variants().stream().map(Manifest.Variant::name).toList();

        List<String> header = new ArrayList<>(List.of("Scenario", "Regime", "Measure"));
        header.addAll(variants);
        List<List<String>> rows = new ArrayList<>();
        for (Manifest.Scenario scenario : selection.scenarios()) {
            for (String regime : selection.regimes()) {
                if (!scenario.regimes().containsKey(regime)) {
                    continue;
                }
                for (String id : MEASURES) {
                    if (id.equals("req_per_cpu_s") && !regime.equals("capacity")) {
                        continue;
                    }
                    Manifest.MetricDefinition metric = manifest.metric(id);
                    List<String> row = new ArrayList<>(List.of(scenario.name(), regime,
                            metric.label() + " (" + metric.unit() + ")"));
                    for (String variant : variants) {
                        row.add(figure(find(cells, variant, scenario.name(), regime), id));
                    }
                    rows.add(row);
                }
            }
        }
        tables.add(new Table("Scenarios and measures", 3, header, rows));

        List<String> resourceHeader = new ArrayList<>(List.of("Variant", "Scenario", "Regime"));
        RESOURCES.forEach(id -> resourceHeader.add(manifest.metric(id).label() + " (" + manifest.metric(id).unit() + ")"));
        List<List<String>> resourceRows = new ArrayList<>();
        for (String variant : variants) {
            for (RunResults.CellSummary cell : cells) {
                if (!cell.key().variant().equals(variant)) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(variant, cell.key().scenario(), cell.key().regime()));
                RESOURCES.forEach(id -> row.add(figure(Optional.of(cell), id)));
                resourceRows.add(row);
            }
        }
        tables.add(new Table("Resources (service process, over the measured window)", 3, resourceHeader, resourceRows));

        List<List<String>> methodRows = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            List<String> warmups = cell.trials().stream()
                    .map(t -> String.format(Locale.ROOT, "%.0f", t.outcome().warmupSeconds())).toList();
            List<String> unsteady = cell.trials().stream().filter(t -> t.outcome().ok() && !t.outcome().steady())
                    .map(t -> "s" + (t.trial() + 1) + ": " + t.outcome().unsteadyReason()).toList();
            methodRows.add(List.of(cell.key().variant(), cell.key().scenario(), cell.key().regime(),
                    String.join("/", warmups), !cell.ok() ? "FAILED" : cell.steady() ? "steady"
                            : "UNSTEADY (" + String.join("; ", unsteady) + ")",
                    cell.ok() ? cell.bottleneck() : "—"));
        }
        tables.add(new Table("Warmup and bottleneck per cell (warmup seconds per start)", 3,
                List.of("Variant", "Scenario", "Regime", "warmup (s)", "state", "bound by"), methodRows));

        List<String> startupHeader = new ArrayList<>(List.of("Variant"));
        STARTUP.forEach(id -> startupHeader.add(manifest.metric(id).label() + " (" + manifest.metric(id).unit() + ")"));
        List<List<String>> startupRows = new ArrayList<>();
        Map<String, Map<String, Summary>> startup = results.startup();
        for (String variant : variants) {
            List<String> row = new ArrayList<>(List.of(variant));
            STARTUP.forEach(id -> row.add(Optional.ofNullable(startup.get(variant)).map(m -> m.get(id))
                    .map(SummaryTables::format).orElse("—")));
            startupRows.add(row);
        }
        tables.add(new Table("Startup", 1, startupHeader, startupRows));

        for (RunResults.CellSummary cell : cells) {
            if (!cell.ok()) {
                failures.add(cell.key().variant() + " / " + cell.key().scenario() + " / " + cell.key().regime()
                        + ": " + cell.reason());
            }
        }
    }

    List<String> failures() {
        return failures;
    }

    private static Optional<RunResults.CellSummary> find(List<RunResults.CellSummary> cells, String variant,
                                                         String scenario, String regime) {
        return cells.stream().filter(c -> c.key().equals(new RunResults.CellKey(variant, scenario, regime))).findFirst();
    }

    private static String figure(Optional<RunResults.CellSummary> cell, String id) {
        if (cell.isEmpty()) {
            return "—";
        }
        if (!cell.get().ok()) {
            return "FAILED";
        }
        Summary s = cell.get().metrics().get(id);
        return s == null ? "—" : format(s);
    }

    static String format(Summary s) {
        String spread = s.n() < 2 ? "" : Double.isFinite(s.spreadPct())
                ? String.format(Locale.ROOT, " ±%.1f%%", s.spreadPct()) : " ±?";
        return number(s.value()) + spread + " (n=" + s.n() + ")";
    }

    /** Three significant digits, like the reference report's figures. */
    static String number(double v) {
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        } else if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        } else if (a >= 1 || a == 0) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        for (Table table : tables) {
            md.append("## ").append(table.title()).append("\n\n");
            md.append("| ").append(String.join(" | ", table.header())).append(" |\n");
            md.append("|").append("---|".repeat(table.header().size())).append('\n');
            for (List<String> row : table.rows()) {
                md.append("| ").append(String.join(" | ", row)).append(" |\n");
            }
            md.append('\n');
        }
        if (!failures.isEmpty()) {
            md.append("## Failed cells\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    String plainText() {
        StringBuilder text = new StringBuilder();
        for (Table table : tables) {
            text.append(table.title()).append('\n');
            int[] widths = new int[table.header().size()];
            List<List<String>> all = new ArrayList<>();
            all.add(table.header());
            all.addAll(table.rows());
            for (List<String> row : all) {
                for (int i = 0; i < row.size(); i++) {
                    widths[i] = Math.max(widths[i], row.get(i).length());
                }
            }
            for (int r = 0; r < all.size(); r++) {
                List<String> row = all.get(r);
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < row.size(); i++) {
                    line.append(i == 0 ? "" : "  ").append(pad(row.get(i), widths[i], i >= table.labelColumns()));
                }
                text.append(line.toString().stripTrailing()).append('\n');
                if (r == 0) {
                    int total = 0;
                    for (int w : widths) {
                        total += w + 2;
                    }
                    text.append("-".repeat(total - 2)).append('\n');
                }
            }
            text.append('\n');
        }
        if (!failures.isEmpty()) {
            text.append("FAILED cells:\n");
            failures.forEach(f -> text.append("  ").append(f).append('\n'));
        }
        return text.toString();
    }

    private static String pad(String s, int width, boolean right) {
        String fill = " ".repeat(Math.max(0, width - s.length()));
        return right ? fill + s : s + fill;
    }
}
