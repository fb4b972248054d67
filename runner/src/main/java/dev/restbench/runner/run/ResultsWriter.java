package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.stats.CellEstimate;
import dev.restbench.runner.stats.Summary;
import dev.restbench.runner.stats.VarianceComponents;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.io.Json;
import dev.restbench.manifest.Manifest;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes results/&lt;run-id&gt;/: the two github-action-benchmark files, summary.md, and run.json LAST — every file
 * atomically — so a directory without run.json is an unfinished (or interrupted) run. Shape: docs/ARCHITECTURE.md
 * and runner/src/main/resources/schemas/run.schema.json.
 */
final class ResultsWriter {
    static final String THROUGHPUT_FILE = "bench-throughput.json";
    static final String COSTS_FILE = "bench-costs.json";
    static final int SCHEMA_VERSION = 2;
    /** The services' fault switches (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT, FAULT_START_FAIL_PERCENT, …). */
    static final String FAULT_PREFIX = "FAULT_";

    /** What run.json records about the run besides the measurements. */
    /** @param hostCheck the host's self-check over the run (null while it runs, or without one) */
    record RunInfo(String runId, String profile, String startedAt, String finishedAt, GitInfo commit,
                   Environment environment, Map<String, Double> timings, RunPlan plan, int roundsRun,
                   HostCheck.Report hostCheck) {
    }

    private final Manifest manifest;
    private final Path dir;

    ResultsWriter(Manifest manifest, Path dir) {
        this.manifest = manifest;
        this.dir = dir;
    }

    void writeAll(RunInfo info, RunResults results, String tablesMarkdown) throws IOException {
        if (ChildProcesses.shuttingDown()) {
            return; // interrupted (Ctrl-C, SIGTERM): the cells are incomplete, write nothing that looks like a result
        }
        List<RunResults.CellSummary> cells = results.cells();
        String fp12 = info.environment().fingerprint().substring(0, 12);
        List<Map<String, Object>> throughput = new ArrayList<>();
        List<Map<String, Object>> costs = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            if (!cell.ok()) {
                continue; // a failed cell has no numbers, so no benchmark entries either
            }
            cell.metrics().forEach((id, s) -> {
                if (manifest.metric(id).shownOnly() != null) {
                    // The alert (github-action-benchmark) judges each entry by its ratio to the last: a metric shown
                    // only has no meaningful ratio (0 → 0.002 plans per request would alert as ∞). run.json keeps it.
                    return;
                }
                String name = cell.key().variant() + "/" + cell.key().scenario() + "/" + cell.key().regime() + "/" + id;
                (manifest.metric(id).biggerIsBetter() ? throughput : costs)
                        .add(benchEntry(name, manifest.metric(id).unit(), s, info.profile(), fp12));
            });
        }
        results.startup().forEach((variant, metrics) -> metrics.forEach((id, s) ->
                costs.add(benchEntry(variant + "/startup/-/" + id, manifest.metric(id).unit(), s, info.profile(), fp12))));
        AtomicFiles.writeJson(dir.resolve(THROUGHPUT_FILE), throughput);
        AtomicFiles.writeJson(dir.resolve(COSTS_FILE), costs);
        AtomicFiles.writeString(dir.resolve("summary.md"), summaryMarkdown(info, tablesMarkdown));
        if (ChildProcesses.shuttingDown()) {
            return; // interrupted: never leave a run.json that would make the run look complete
        }
        AtomicFiles.writeJson(dir.resolve("run.json"), runJson(manifest, info, results));
    }

    /** The run.json tree (also built after each round for a {@link BenchmarkRun.RoundListener}). */
    static ObjectNode runJson(Manifest manifest, RunInfo info, RunResults results) {
        List<RunResults.CellSummary> cells = results.cells();
        Map<String, Map<String, Summary>> startup = results.startup();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("schemaVersion", SCHEMA_VERSION);
        run.put("runId", info.runId());
        run.put("status", runStatus(cells));
        run.put("profile", info.profile());
        run.put("startedAt", info.startedAt());
        run.put("finishedAt", info.finishedAt());
        Map<String, Object> commit = new LinkedHashMap<>();
        commit.put("id", info.commit().id());
        commit.put("message", info.commit().message());
        commit.put("author", info.commit().author());
        commit.put("timestamp", info.commit().timestamp());
        commit.put("url", null);
        commit.put("dirty", info.commit().dirty());
        run.put("commit", commit);
        run.put("environment", info.environment());
        run.put("hostCheck", info.hostCheck() == null ? null : info.hostCheck().toJson());
        Map<String, Object> plan = new LinkedHashMap<>();
        plan.put("seed", info.plan().seed());
        plan.put("rounds", info.roundsRun());
        plan.put("order", info.plan().trials().stream().filter(t -> t.round() < info.roundsRun())
                .map(t -> List.of(t.round(), t.variant().name())).toList());
        run.put("plan", plan);
        Manifest.Profile profile = manifest.profiles().get(info.profile());
        if (profile != null) {
            run.put("method", method(manifest, profile));
        }
        run.put("metricDefinitions", manifest.metrics().stream().map(ResultsWriter::metricDefinition).toList());
        List<Object> variants = new ArrayList<>();
        startup.forEach((variant, metrics) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", variant);
            // What the variant is, for the site and the PR comment to label and filter by (benchmarks.json).
            manifest.variant(variant).ifPresent(v -> {
                entry.put("label", v.displayName());
                entry.put("description", v.description());
                entry.put("classification", v.labels());
                // A fault switch on (the regression drill's copies) means the service was altered on purpose: the
                // record says so, so no reader can take its figures for the variant's own.
                Map<String, String> faults = new TreeMap<>();
                v.env().forEach((key, value) -> {
                    if (key.startsWith(FAULT_PREFIX)) {
                        faults.put(key, value);
                    }
                });
                if (!faults.isEmpty()) {
                    entry.put("faults", faults);
                }
            });
            Map<String, Object> startupMetrics = new LinkedHashMap<>();
            metrics.forEach((id, s) -> {
                Map<String, Object> summary = summary(manifest, id, s, results.startupValues().get(variant).get(id),
                        null);
                // The round of each value: a start that never got ready has none, so values pair by round, not index.
                summary.put("rounds", results.startupRounds().getOrDefault(variant, Map.of()).get(id));
                startupMetrics.put(id, summary);
            });
            entry.put("startup", startupMetrics);
            variants.add(entry);
        });
        run.put("variants", variants);
        List<Object> cellList = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            cellList.add(cellJson(manifest, cell));
        }
        run.put("cells", cellList);
        // The answer per scenario: the least CPU per request and each other's ratio to it (CpuComparisons).
        run.put("comparisons", CpuComparisons.of(manifest.scenarios(), cells, manifest).json());
        run.put("timings", info.timings());
        return Json.MAPPER.valueToTree(run);
    }

    /**
     * "ok" when no cell failed and some cell was measured; "failed" otherwise. A cell not measured (its runtime is not
     * on this machine, the budget ran out) fails nothing, and says so itself; a run that measured nothing at all is no
     * result.
     */
    static String runStatus(List<RunResults.CellSummary> cells) {
        boolean anyFailed = cells.stream().anyMatch(RunResults.CellSummary::failed);
        boolean anyMeasured = cells.stream().anyMatch(RunResults.CellSummary::ok);
        return !anyFailed && anyMeasured ? RunResults.OK : RunResults.FAILED;
    }

    private static Map<String, Object> cellJson(Manifest manifest, RunResults.CellSummary cell) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("variant", cell.key().variant());
        entry.put("scenario", cell.key().scenario());
        entry.put("regime", cell.key().regime());
        entry.put("status", cell.status());
        entry.put("reason", cell.reason());
        entry.put("steady", cell.steady());
        entry.put("bottleneck", cell.ok() ? cell.bottleneck() : null);
        List<Object> trials = new ArrayList<>();
        for (RunResults.TrialResult trial : cell.trials()) {
            CellSession.Outcome outcome = trial.outcome();
            boolean measured = cell.ok() && outcome.ok();
            Map<String, Object> t = new LinkedHashMap<>();
            t.put("trial", trial.trial());
            t.put("round", trial.round());
            t.put("status", outcome.ok() ? RunResults.OK : outcome.notMeasured() ? RunResults.NOT_MEASURED
                    : RunResults.FAILED);
            t.put("reason", outcome.reason());
            t.put("warmupSeconds", round(outcome.warmupSeconds()));
            t.put("steady", outcome.steady());
            t.put("unsteadyReason", outcome.unsteadyReason());
            t.put("bottleneck", outcome.ok() ? outcome.bottleneck() : null);
            t.put("utilisation", outcome.utilisation() == null ? null : utilisation(outcome.utilisation()));
            List<Object> windows = new ArrayList<>();
            for (CellSession.Window window : outcome.windows()) {
                Map<String, Object> w = new LinkedHashMap<>();
                w.put("startedAtMs", window.startedAtMillis());
                w.put("seconds", round(window.seconds()));
                // No numbers anywhere in a failed cell, not even from its trials that went well, nor in a failed
                // start (recorded per start, its cell holds the others' figures).
                w.put("metrics", measured ? round(window.metrics()) : Map.of());
                windows.add(w);
            }
            t.put("windows", measured ? windows : List.of());
            Map<String, Object> operations = new LinkedHashMap<>();
            if (measured) {
                outcome.operations().forEach((name, op) -> {
                    Map<String, Object> o = new LinkedHashMap<>();
                    o.put("requests", op.requests());
                    o.put("reqPerS", round(op.reqPerS()));
                    o.put("p50Ms", op.p50Ms());
                    o.put("p99Ms", op.p99Ms());
                    o.put("errorPct", round(op.errorPct()));
                    operations.put(name, o);
                });
            }
            t.put("operations", operations);
            t.put("report", outcome.report());
            t.put("flameGraphs", flameGraphs(outcome.flameGraphs()));
            trials.add(t);
        }
        entry.put("trials", trials);
        if (cell.ok()) {
            Map<String, Object> metrics = new LinkedHashMap<>();
            cell.metrics().forEach((id, s) -> {
                Map<String, Object> summary = summary(manifest, id, s, cell.values().get(id), cell.windows().get(id));
                summary.put("primary", manifest.metric(id).primaryIn(cell.key().regime()));
                metrics.put(id, summary);
            });
            entry.put("metrics", metrics);
            Map<String, Object> lacking = new java.util.TreeMap<>();
            cell.lacking().forEach((id, l) -> lacking.put(id, Map.of("where", l.where(), "round", l.round())));
            entry.put("lacking", lacking);
        }
        return entry;
    }

    /**
     * How the figures were taken, from the profile the run used: what a number shown anywhere is judged by (the
     * site's Method page). The per-cell warmup and state are in the cells.
     */
    private static Map<String, Object> method(Manifest manifest, Manifest.Profile profile) {
        Map<String, Object> method = new LinkedHashMap<>();
        method.put("startsPerVariant", profile.trials());
        method.put("windowsPerCell", profile.windows());
        method.put("windowSeconds", profile.windowSeconds());
        Map<String, Object> warmup = new LinkedHashMap<>();
        warmup.put("minSeconds", profile.warmup().minSeconds());
        warmup.put("maxSeconds", profile.warmup().maxSeconds());
        warmup.put("stableSeconds", profile.warmup().stableSeconds());
        warmup.put("maxJitMsPerS", profile.warmup().maxJitMsPerS());
        warmup.put("maxDriftPct", profile.warmup().maxDriftPct());
        Manifest.Cycles cycles = profile.warmup().cycles();
        if (cycles != null) {
            warmup.put("cycles", Map.of("count", cycles.count(), "loadSeconds", cycles.loadSeconds(),
                    "idleSeconds", cycles.idleSeconds()));
        }
        method.put("warmup", warmup);
        method.put("loadScale", profile.scale());
        Manifest.Dataset dataset = manifest.datasets().get(profile.dataset());
        Map<String, Object> data = new LinkedHashMap<>();
        data.put("name", profile.dataset());
        if (dataset != null) {
            data.put("categories", dataset.categories());
            data.put("items", dataset.items());
        }
        method.put("dataset", data);
        method.put("maxErrorPct", manifest.errorBudget().maxErrorPct());
        method.put("capacityP99Ms", manifest.errorBudget().capacityP99Ms());
        return method;
    }

    private static Map<String, Object> metricDefinition(Manifest.MetricDefinition m) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("id", m.id());
        out.put("name", m.name());
        out.put("label", m.label());
        out.put("unit", m.unit());
        out.put("direction", m.direction());
        out.put("scope", m.scope());
        out.put("version", m.version());
        out.put("primary", m.primary() == null ? List.of() : m.primary());
        out.put("description", m.description());
        // How a verdict judges it, so the history judges each run with the rules it was measured under.
        if (m.minEffectPct() != null) {
            out.put("minEffectPct", m.minEffectPct());
        }
        if (m.discrete()) {
            out.put("discrete", true);
        }
        if (m.reciprocalOf() != null) {
            out.put("reciprocalOf", m.reciprocalOf());
        }
        if (m.hostIndependent()) {
            out.put("hostIndependent", true);
        }
        if (m.adjustedBy() != null) {
            out.put("adjustedBy", m.adjustedBy());
        }
        if (m.crossCheckedBy() != null) {
            out.put("crossCheckedBy", m.crossCheckedBy());
        }
        if (m.shownOnly() != null) {
            out.put("shownOnly", m.shownOnly());
        }
        if (m.tables() != null && !m.tables().isEmpty()) {
            out.put("tables", m.tables());
        }
        return out;
    }

    /** null: not asked for (no --flamegraphs); else the files, or why there are none. */
    private static Map<String, Object> flameGraphs(FlameGraphs.Result result) {
        if (result == null) {
            return null;
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("cpu", result.cpu());
        out.put("alloc", result.alloc());
        out.put("jfr", result.jfr());
        out.put("seconds", result.present() ? round(result.seconds()) : null);
        out.put("reason", result.reason());
        return out;
    }

    private static Map<String, Object> utilisation(WindowMetrics.Utilisation u) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("service", roundOrNull(u.service()));
        out.put("postgres", roundOrNull(u.postgres()));
        out.put("loadGenerator", roundOrNull(u.loadGenerator()));
        out.put("serviceCores", roundOrNull(u.serviceCores()));
        out.put("sharedCores", roundOrNull(u.sharedCores()));
        // What else ran on the service's cores (other processes, interrupts, steal): busy minus the service's own.
        out.put("others", u.service() == null || u.serviceCores() == null ? null
                : roundOrNull(Math.max(0, u.serviceCores() - u.service())));
        return out;
    }

    /**
     * A metric of a cell over its trials: n = trials (starts), each value a start's own (the geometric mean of its
     * windows); value (their geometric mean), median, min, max and spread; with windows, each start's window values,
     * the 95 % interval of the value (over the starts, or — flagged — over one start's windows) and the variance
     * components between and within starts.
     */
    private static Map<String, Object> summary(Manifest manifest, String id, Summary s, List<Double> values,
                                               double[][] windows) {
        Manifest.MetricDefinition metric = manifest.metric(id);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("unit", metric.unit());
        out.put("direction", metric.direction());
        out.put("n", s.n());
        out.put("value", round(s.value()));
        out.put("median", round(s.median()));
        out.put("min", round(s.min()));
        out.put("max", round(s.max()));
        out.put("spreadPct", Double.isFinite(s.spreadPct()) ? round(s.spreadPct()) : null);
        out.put("values", values.stream().map(ResultsWriter::round).toList());
        if (windows != null) {
            out.put("windows", java.util.Arrays.stream(windows)
                    .map(w -> java.util.Arrays.stream(w).map(ResultsWriter::round).boxed().toList()).toList());
            if (allPositive(windows)) {
                CellEstimate.Estimate estimate = CellEstimate.of(windows, 0.95);
                if (estimate.interval().isBounded()) {
                    out.put("ci95", List.of(round(estimate.interval().low()), round(estimate.interval().high())));
                }
                out.put("ciCovers", estimate.coverage().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
                VarianceComponents.Components components = VarianceComponents.estimate(windows);
                if (components.status() == VarianceComponents.Status.ESTIMATED) {
                    out.put("betweenStartCvPct", round(components.betweenCvPct()));
                    out.put("withinStartCvPct", round(components.withinCvPct()));
                } else if (windows.length == 1 && windows[0].length > 1) {
                    out.put("withinStartCvPct", round(components.withinCvPct()));
                }
            }
        }
        return out;
    }

    static boolean allPositive(double[][] windows) {
        for (double[] trial : windows) {
            for (double v : trial) {
                if (!(v > 0)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** One github-action-benchmark entry: exactly name, unit, value, range, extra. */
    private static Map<String, Object> benchEntry(String name, String unit, Summary s, String profile, String fp12) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("unit", unit);
        entry.put("value", round(s.value()));
        entry.put("range", "± " + round((s.max() - s.min()) / 2.0));
        entry.put("extra", "n=" + s.n() + " min=" + round(s.min()) + " max=" + round(s.max()) + " profile=" + profile
                + " env=" + fp12);
        return entry;
    }

    private String summaryMarkdown(RunInfo info, String tables) {
        Environment env = info.environment();
        return "# restbench run " + info.runId() + "\n\n"
                + "- profile: `" + info.profile() + "`, commit `" + info.commit().shortId() + "`"
                + (info.commit().dirty() ? " (dirty working tree)" : "") + "\n"
                + "- " + env.cpuModel() + " × " + env.cpuCount() + ", " + env.os() + " " + env.kernel()
                + ", JDK " + env.jdk() + ", PostgreSQL " + env.postgres() + ", harness v" + env.harnessVersion() + "\n"
                + "- CPU pinning: service " + env.pinning().get("service") + ", Gatling " + env.pinning().get("gatling")
                + ", PostgreSQL " + env.pinning().get("postgres") + "\n"
                + (env.services().isEmpty() ? "" : "- services measured at URLs, not started by the runner (CPU/request"
                        + " from their own process_cpu_time, JIT compilation included; no startup metrics): "
                        + env.services().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", ")) + "\n")
                + "- " + info.roundsRun() + " round(s) of starts in randomized order (seed " + info.plan().seed() + ")\n"
                + "- figures: the geometric mean over the starts (n) of each start's own value (the geometric mean of its"
                + " windows); ±spread = (max − min) / value over the starts; latencies and RPS from Gatling's"
                + " simulation.log\n\n"
                + tables;
    }

    static double round(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return value;
        }
        // 6 significant digits: far below any run-to-run noise, keeps the files readable.
        return new BigDecimal(value).round(new MathContext(6)).doubleValue();
    }

    private static Double roundOrNull(Double value) {
        return value == null ? null : round(value);
    }

    private static Map<String, Double> round(Map<String, Double> metrics) {
        Map<String, Double> out = new LinkedHashMap<>();
        metrics.forEach((k, v) -> out.put(k, round(v)));
        return out;
    }
}
