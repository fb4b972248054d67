package dev.restbench.runner.run;

import dev.restbench.runner.io.TextTable;
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
    /**
     * The answer's short startup headers, so that it fits 100 columns (summary.md has the metrics' own labels); a
     * startup metric not named here is headed by its label.
     */
    private static final Map<String, String> SHORT_STARTUP_HEADERS = Map.of("time_to_ready_ms", "ready (ms)",
            "rss_after_start_mb", "RSS (MB)", "heap_after_start_mb", "heap (MB)", "classes_loaded", "classes",
            "live_threads", "threads");

    private record Table(String title, TextTable table) {
    }

    /** The answer's columns per regime: its primary metrics, and capacity's efficiency beside them. */
    private static final Map<String, List<String>> ANSWER = Map.of(
            "capacity", List.of("throughput", "req_per_cpu_s", "cpu_us_per_req", "alloc_bytes_per_req"),
            "latency", List.of("latency_p99", "latency_p50", "error_pct"));

    private final List<Table> tables = new ArrayList<>();
    private final List<String> failures = new ArrayList<>();
    private final List<String> notMeasured = new ArrayList<>();
    private final List<String> leftOut = new ArrayList<>();
    private final Manifest manifest;
    private final RunSelection selection;
    private final RunResults results;
    private final List<String> variants;
    /** Each table's metrics, in catalogue order: where benchmarks.json's catalogue places them (its one home). */
    private final List<String> measures;
    private final List<String> resources;
    private final List<String> startupMetrics;

    SummaryTables(Manifest manifest, RunSelection selection, RunResults results) {
        this.manifest = manifest;
        this.selection = selection;
        this.results = results;
        List<RunResults.CellSummary> cells = results.cells();
        List<String> variants = selection.variants().stream().map(Manifest.Variant::name).toList();
        this.variants = variants;
        this.measures = inTable(manifest, Manifest.MetricDefinition.MEASURES_TABLE);
        this.resources = inTable(manifest, Manifest.MetricDefinition.RESOURCES_TABLE);
        this.startupMetrics = manifest.metrics().stream().filter(m -> "startup".equals(m.scope()))
                .map(Manifest.MetricDefinition::id).toList();

        List<String> header = new ArrayList<>(List.of("Scenario", "Regime", "Measure"));
        header.addAll(variants);
        List<List<String>> rows = new ArrayList<>();
        for (Manifest.Scenario scenario : selection.scenarios()) {
            for (String regime : selection.regimes()) {
                if (!scenario.regimes().containsKey(regime)) {
                    continue;
                }
                for (String id : measures) {
                    if (id.equals("req_per_cpu_s") && !Manifest.Regime.closedModel(regime)) {
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
        tables.add(new Table("Scenarios and measures", table(header, 3, rows)));

        List<String> resourceHeader = new ArrayList<>(List.of("Variant", "Scenario", "Regime"));
        resources.forEach(id -> resourceHeader.add(manifest.metric(id).label() + " (" + manifest.metric(id).unit() + ")"));
        List<List<String>> resourceRows = new ArrayList<>();
        for (String variant : variants) {
            for (RunResults.CellSummary cell : cells) {
                if (!cell.key().variant().equals(variant)) {
                    continue;
                }
                List<String> row = new ArrayList<>(List.of(variant, cell.key().scenario(), cell.key().regime()));
                resources.forEach(id -> row.add(figure(Optional.of(cell), id)));
                resourceRows.add(row);
            }
        }
        tables.add(new Table("Resources (service process, over the measured window)", table(resourceHeader, 3,
                resourceRows)));

        List<String> operationHeader = new ArrayList<>(List.of("Scenario", "Regime", "Operation"));
        variants.forEach(v -> operationHeader.add(v + " (req/s · p99 ms)"));
        List<List<String>> operationRows = new ArrayList<>();
        for (Manifest.Scenario scenario : selection.scenarios()) {
            for (String regime : selection.regimes()) {
                java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
                for (String variant : variants) {
                    find(cells, variant, scenario.name(), regime).filter(RunResults.CellSummary::ok)
                            .ifPresent(c -> c.trials().forEach(t -> names.addAll(t.outcome().operations().keySet())));
                }
                for (String name : names) {
                    List<String> row = new ArrayList<>(List.of(scenario.name(), regime, name));
                    for (String variant : variants) {
                        row.add(find(cells, variant, scenario.name(), regime).filter(RunResults.CellSummary::ok)
                                .map(c -> operation(c, name)).orElse("—"));
                    }
                    operationRows.add(row);
                }
            }
        }
        if (!operationRows.isEmpty()) {
            tables.add(new Table("Per operation (Gatling's request names; over the measured windows, value over starts)",
                    table(operationHeader, 3, operationRows)));
        }

        List<List<String>> methodRows = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            List<String> warmups = cell.trials().stream()
                    .map(t -> t.outcome().notMeasured() ? "—" // never begun: no warmup to count
                            : String.format(Locale.ROOT, "%.0f", t.outcome().warmupSeconds())).toList();
            List<String> unsteady = cell.trials().stream().filter(t -> t.outcome().ok() && !t.outcome().steady())
                    .map(t -> "s" + (t.trial() + 1) + ": " + t.outcome().unsteadyReason()).toList();
            methodRows.add(List.of(cell.key().variant(), cell.key().scenario(), cell.key().regime(),
                    String.join("/", warmups), !cell.ok() ? state(cell) : cell.steady() ? "steady"
                            : "UNSTEADY (" + String.join("; ", unsteady) + ")",
                    cell.ok() ? cell.bottleneck() : "—"));
        }
        tables.add(new Table("Warmup and bottleneck per cell (warmup seconds per start)",
                table(List.of("Variant", "Scenario", "Regime", "warmup (s)", "state", "bound by"), 3, methodRows)));

        List<String> startupHeader = new ArrayList<>(List.of("Variant"));
        startupMetrics.forEach(id -> startupHeader.add(manifest.metric(id).label() + " (" + manifest.metric(id).unit() + ")"));
        List<List<String>> startupRows = new ArrayList<>();
        Map<String, Map<String, Summary>> startup = results.startup();
        for (String variant : variants) {
            List<String> row = new ArrayList<>(List.of(variant));
            startupMetrics.forEach(id -> row.add(Optional.ofNullable(startup.get(variant)).map(m -> m.get(id))
                    .map(SummaryTables::format).orElse("—")));
            startupRows.add(row);
        }
        tables.add(new Table("Startup", table(startupHeader, 1, startupRows)));

        for (RunResults.CellSummary cell : cells) {
            String name = cell.key().variant() + " / " + cell.key().scenario() + " / " + cell.key().regime();
            if (cell.failed()) {
                failures.add(name + ": " + cell.reason());
            } else if (cell.notMeasured()) {
                notMeasured.add(name + ": " + cell.reason());
            }
            // A metric only some windows had is left out of the cell: said here, so it never vanishes unseen.
            java.util.Map<String, List<String>> byWindow = new java.util.TreeMap<>();
            cell.lacking().forEach((metric, at) -> byWindow.computeIfAbsent(at.where(), k -> new ArrayList<>())
                    .add(metric));
            byWindow.forEach((where, metrics) -> leftOut.add(name + ": " + String.join(", ", metrics)
                    + " left out (" + where + " lacks " + (metrics.size() == 1 ? "it" : "them") + ")"));
        }
    }

    /** Per cell, the metrics it left out because a window lacked them (RunResults.CellSummary#lacking). */
    List<String> leftOut() {
        return leftOut;
    }

    List<String> failures() {
        return failures;
    }

    /** The cells none of whose starts was begun (no runtime on this machine, no budget left), with why. */
    List<String> notMeasured() {
        return notMeasured;
    }

    /** A cell without figures as the tables name it: FAILED, or "not measured" (never begun, nothing failed). */
    private static String state(RunResults.CellSummary cell) {
        return cell.notMeasured() ? "not measured" : "FAILED";
    }

    /** "req/s · p99 ms" of one operation: the centre of its starts' values (geometric mean; median for p99). */
    private static List<String> inTable(Manifest manifest, String table) {
        return manifest.metrics().stream().filter(m -> m.inTable(table)).map(Manifest.MetricDefinition::id).toList();
    }

    private static String operation(RunResults.CellSummary cell, String name) {
        List<CellSession.Operation> ops = cell.trials().stream().map(t -> t.outcome().operations().get(name))
                .filter(java.util.Objects::nonNull).toList();
        if (ops.isEmpty()) {
            return "—";
        }
        double rate = Summary.center(ops.stream().mapToDouble(CellSession.Operation::reqPerS).toArray());
        double p99 = dev.restbench.runner.stats.Descriptive.median(ops.stream().mapToDouble(o -> o.p99Ms()).toArray());
        return number(rate) + " · " + number(p99);
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
            return state(cell.get());
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

    private static TextTable table(List<String> header, int labelColumns, List<List<String>> rows) {
        TextTable table = TextTable.of(header, labelColumns);
        rows.forEach(table::row);
        return table;
    }

    /** Every table as Markdown: summary.md. */
    String markdown() {
        StringBuilder md = new StringBuilder();
        for (Table table : tables) {
            md.append("## ").append(table.title()).append("\n\n").append(table.table().markdown()).append('\n');
        }
        if (!failures.isEmpty()) {
            md.append("## Failed cells\n\n");
            failures.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        if (!notMeasured.isEmpty()) {
            md.append("## Cells not measured\n\nNever begun, so nothing failed and nothing was measured:\n\n");
            notMeasured.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        if (!leftOut.isEmpty()) {
            md.append("## Metrics left out of a cell\n\n");
            leftOut.forEach(f -> md.append("- ").append(f).append('\n'));
            md.append('\n');
        }
        return md.toString();
    }

    /** Every table as aligned text ({@code --full-tables}). */
    String plainText() {
        StringBuilder text = new StringBuilder();
        for (Table table : tables) {
            text.append(table.title()).append('\n').append(table.table().plain()).append('\n');
        }
        appendFailures(text, 0);
        return text.toString();
    }

    /** @param width wrap each failure at this many columns (the answer's 100; a reason can be long), 0: do not */
    private void appendFailures(StringBuilder text, int width) {
        if (!failures.isEmpty()) {
            text.append("FAILED cells:\n");
            failures.forEach(f -> text.append(width > 0 ? wrap("  " + f, "    ", width) : "  " + f + "\n"));
        }
        if (!notMeasured.isEmpty()) {
            text.append("Cells not measured (never begun; nothing failed):\n");
            notMeasured.forEach(f -> text.append(width > 0 ? wrap("  " + f, "    ", width) : "  " + f + "\n"));
        }
        if (!leftOut.isEmpty()) {
            text.append("Metrics left out of a cell:\n");
            leftOut.forEach(f -> text.append(width > 0 ? wrap("  " + f, "    ", width) : "  " + f + "\n"));
        }
    }

    /**
     * The terminal's answer (fits 100 columns): per scenario one sentence on CPU per request, then per regime its
     * primary metrics with state and bottleneck per cell, and startup. Every other figure is in summary.md.
     */
    String answer() {
        StringBuilder text = new StringBuilder();
        List<RunResults.CellSummary> cells = results.cells();
        int maxN = cells.stream().flatMap(c -> c.metrics().values().stream()).mapToInt(Summary::n).max().orElse(0);
        int minN = cells.stream().flatMap(c -> c.metrics().values().stream()).mapToInt(Summary::n).min().orElse(0);
        boolean uniform = minN == maxN;
        List<String> sentences = sentences(cells);
        if (!sentences.isEmpty()) {
            text.append("CPU per request (capacity; × the least, 95 % CI)").append(maxN < 2 ? ", one start each: indicative" : "")
                    .append('\n');
            sentences.forEach(line -> text.append(wrap("  " + line, line.startsWith("  ") ? "      " : "    ", 100)));
            text.append('\n');
        }
        for (String regime : selection.regimes()) {
            if (Manifest.Regime.sweepUsers(regime).isPresent()) {
                continue; // one table for all the steps, below
            }
            List<String> ids = ANSWER.getOrDefault(regime, List.of());
            List<String> header = new ArrayList<>(List.of("Scenario", "Variant"));
            ids.forEach(id -> header.add(manifest.metric(id).label()));
            header.add("bound by, state");
            TextTable table = TextTable.of(header, 2);
            for (Manifest.Scenario scenario : selection.scenarios()) {
                if (!scenario.regimes().containsKey(regime)) {
                    continue;
                }
                for (String variant : variants) {
                    Optional<RunResults.CellSummary> cell = find(cells, variant, scenario.name(), regime);
                    if (cell.isEmpty()) {
                        continue;
                    }
                    List<String> row = new ArrayList<>(List.of(scenario.name(), variant));
                    for (String id : ids) {
                        row.add(compact(cell.get(), id, uniform));
                    }
                    RunResults.CellSummary c = cell.get();
                    row.add(!c.ok() ? state(c) : c.bottleneck() + (c.steady() ? "" : ", UNSTEADY"));
                    table.row(row);
                }
            }
            if (table.isEmpty()) {
                continue;
            }
            text.append(regime).append(": value").append(maxN >= 2 ? " ±half its range over the starts" : "")
                    .append(uniform ? " (n = " + maxN + " start" + (maxN == 1 ? "" : "s") + " per cell)" : " (n starts)")
                    .append('\n').append(table.plain()).append('\n');
        }
        sweep(cells, uniform, maxN).ifPresent(text::append);
        sqlWork(cells).ifPresent(line -> text.append(wrap(line, "  ", 100)).append('\n'));
        Map<String, Map<String, Summary>> startup = results.startup();
        if (!startup.isEmpty()) {
            List<String> header = new ArrayList<>(List.of("Variant"));
            startupMetrics.forEach(id -> header.add(SHORT_STARTUP_HEADERS.getOrDefault(id, manifest.metric(id).label())));
            TextTable table = TextTable.of(header, 1);
            for (String variant : variants) {
                List<String> row = new ArrayList<>(List.of(variant));
                startupMetrics.forEach(id -> row.add(Optional.ofNullable(startup.get(variant)).map(m -> m.get(id))
                        .map(v -> number(v.value())).orElse("—")));
                table.row(row);
            }
            text.append("startup").append('\n').append(table.plain()).append('\n');
        }
        appendFailures(text, 100);
        // The results directory is printed below ("results: …"); a path here could not keep the line within 100.
        text.append("all tables (percentiles, resources, per operation, warmup): summary.md there, or --full-tables\n");
        return text.toString();
    }

    /** Variants whose statements per request differ by more than this share do not do the same SQL work. */
    static final double SAME_SQL_WORK = 0.10;

    /**
     * The fairness gate that travels with every result: per scenario (capacity, where the most requests make the
     * count exact), the SQL statements per request PostgreSQL counted for each variant — one figure when they agree
     * within {@link #SAME_SQL_WORK}, else each variant's, flagged, since a comparison of their timings then compares
     * their queries too. Empty when nothing was counted.
     */
    private Optional<String> sqlWork(List<RunResults.CellSummary> cells) {
        List<String> parts = new ArrayList<>();
        for (Manifest.Scenario scenario : selection.scenarios()) {
            Map<String, Double> byVariant = new java.util.LinkedHashMap<>();
            for (String variant : variants) {
                find(cells, variant, scenario.name(), "capacity").filter(RunResults.CellSummary::ok)
                        .map(c -> c.metrics().get("sql_statements_per_req"))
                        .ifPresent(summary -> byVariant.put(variant, summary.value()));
            }
            if (byVariant.isEmpty()) {
                continue;
            }
            double min = byVariant.values().stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            double max = byVariant.values().stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            if (max <= min * (1 + SAME_SQL_WORK)) {
                // One figure when both ends print alike ("2.00", not "2.00–2.00").
                parts.add(scenario.name() + " " + number(min) + (number(min).equals(number(max)) ? "" : "–" + number(max))
                        + (byVariant.size() > 1 ? " for every variant" : ""));
            } else {
                List<String> each = new ArrayList<>();
                byVariant.forEach((variant, value) -> each.add(variant + " " + number(value)));
                parts.add(scenario.name() + " ⚠ not the same SQL work: " + String.join(", ", each));
            }
        }
        return parts.isEmpty() ? Optional.empty()
                : Optional.of("SQL statements per request (capacity, counted by PostgreSQL): " + String.join("; ", parts));
    }

    /**
     * Seed 004's concurrency sweep: per scenario and variant, throughput and p99 at each users-N step side by side
     * (a closed model each), so the knee shows in one row: where more users stop adding requests and start adding
     * latency.
     */
    private Optional<String> sweep(List<RunResults.CellSummary> cells, boolean uniform, int maxN) {
        List<String> steps = selection.regimes().stream().filter(r -> Manifest.Regime.sweepUsers(r).isPresent())
                .sorted(java.util.Comparator.comparingInt(r -> Manifest.Regime.sweepUsers(r).getAsInt())).toList();
        if (steps.isEmpty()) {
            return Optional.empty();
        }
        List<String> header = new ArrayList<>(List.of("Scenario", "Variant"));
        steps.forEach(step -> header.add(Manifest.Regime.sweepUsers(step).getAsInt() + " users"));
        TextTable table = TextTable.of(header, 2);
        for (Manifest.Scenario scenario : selection.scenarios()) {
            for (String variant : variants) {
                List<String> row = new ArrayList<>(List.of(scenario.name(), variant));
                boolean any = false;
                for (String step : steps) {
                    Optional<RunResults.CellSummary> cell = scenario.regimes().containsKey(step)
                            ? find(cells, variant, scenario.name(), step) : Optional.empty();
                    any |= cell.isPresent();
                    row.add(cell.map(c -> !c.ok() ? state(c) : compact(c, "throughput", uniform) + " · "
                            + compact(c, "latency_p99", uniform) + (c.steady() ? "" : " U")).orElse("—"));
                }
                if (any) {
                    table.row(row);
                }
            }
        }
        if (table.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("concurrency sweep: req/s · p99 ms per step (U = unsteady)"
                + (maxN >= 2 ? ", value ±half its range over the starts" : "")
                + (uniform ? " (n = " + maxN + " start" + (maxN == 1 ? "" : "s") + " per cell)" : " (n starts)")
                + '\n' + table.plain() + '\n');
    }

    /** Breaks a line at spaces so that no line is longer than {@code width}; continuations start with {@code indent}. */
    static String wrap(String line, String indent, int width) {
        StringBuilder out = new StringBuilder();
        StringBuilder current = new StringBuilder();
        for (String word : line.split(" (?=\\S)")) {
            if (current.length() > 0 && current.length() + 1 + word.length() > width) {
                out.append(current).append('\n');
                current = new StringBuilder(indent);
            } else if (current.length() > 0 && !current.toString().equals(indent)) {
                current.append(' ');
            }
            current.append(word);
        }
        return out.append(current).append('\n').toString();
    }

    /**
     * Per scenario: which variant needs the least service CPU per request, and how much the others need, with the
     * ratio's 95 % interval (over the starts; "in one start" when it could only use one start's windows); then, when
     * the variants read through more than one data access, the same with it held fixed ("with jdbc: …") and its cost
     * per framework ("dataAccess alone (all else alike): jersey → jersey-jpa 1.3×"), each an indented line of its scenario.
     */
    private List<String> sentences(List<RunResults.CellSummary> cells) {
        List<String> out = new ArrayList<>();
        CpuComparisons comparisons = CpuComparisons.of(selection.scenarios(), cells, manifest);
        for (CpuComparisons.Comparison c : comparisons.scenarios()) {
            if (c.kind() != CpuComparisons.Kind.ACROSS) {
                continue;
            }
            out.add(c.scenario() + ": " + leastAndOthers(c));
            for (CpuComparisons.Comparison within : comparisons.of(c.scenario(), CpuComparisons.Kind.WITHIN)) {
                out.add("  with " + within.key() + " " + within.value() + ": " + leastAndOthers(within));
            }
            List<String> along = comparisons.of(c.scenario(), CpuComparisons.Kind.ALONG).stream()
                    .map(a -> a.best() + " → " + a.others().stream().map(r -> r.variant() + " "
                            + ratio(r.estimate()) + differs(a.best(), r.variant())).collect(
                                    java.util.stream.Collectors.joining(", ")))
                    .toList();
            if (!along.isEmpty()) {
                out.add("  " + CpuComparisons.HELD_FIXED + " alone (all else alike): " + String.join("; ", along));
            }
        }
        return out;
    }

    private String leastAndOthers(CpuComparisons.Comparison c) {
        List<String> others = c.others().stream().map(r -> r.variant() + " " + ratio(r.estimate())
                + differs(c.best(), r.variant())).toList();
        return c.best() + " " + number(c.bestValue()) + " µs; " + String.join(", ", others);
    }

    /**
     * " [framework, dataAccess]": the classification keys in which {@code other} differs from {@code best}, so a ratio
     * says everything it compares, not only the stack it names; empty when they differ in none or either variant is
     * not in the manifest.
     */
    private String differs(String best, String other) {
        Optional<Manifest.Variant> a = manifest.variant(best);
        Optional<Manifest.Variant> b = manifest.variant(other);
        if (a.isEmpty() || b.isEmpty()) {
            return "";
        }
        List<String> keys = a.get().differingKeys(b.get());
        return keys.isEmpty() ? "" : " [" + String.join(", ", keys) + "]";
    }

    /** "2.1× (1.9–2.4)", "2.1× (1.9–2.4 in one start)" or "2.1×" when nothing bounds it. */
    static String ratio(dev.restbench.runner.stats.CellRatio.Estimate e) {
        String value = String.format(Locale.ROOT, "%.1f×", e.ratio());
        if (!e.interval().isBounded()) {
            return value;
        }
        return value + String.format(Locale.ROOT, " (%.1f–%.1f%s)", e.interval().low(), e.interval().high(),
                e.coverage() == dev.restbench.runner.stats.CellEstimate.Coverage.WITHIN_ONE_START_ONLY ? " in one start" : "");
    }

    private static String compact(RunResults.CellSummary cell, String id, boolean uniform) {
        if (!cell.ok()) {
            return "—";
        }
        Summary s = cell.metrics().get(id);
        if (s == null) {
            return "—";
        }
        String spread = s.n() < 2 || !Double.isFinite(s.spreadPct()) ? ""
                : String.format(Locale.ROOT, " ±%.0f%%", s.spreadPct() / 2);
        return number(s.value()) + spread + (uniform ? "" : " (" + s.n() + ")");
    }
}
