package dev.restbench.runner.run;

import dev.restbench.runner.analysis.Stats;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.manifest.Manifest;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes results/&lt;run-id&gt;/: the two github-action-benchmark files, summary.md, and run.json LAST — every file
 * atomically — so a directory without run.json is an unfinished (or interrupted) run.
 */
final class ResultsWriter {
    static final String THROUGHPUT_FILE = "bench-throughput.json";
    static final String COSTS_FILE = "bench-costs.json";

    /** What run.json records about the run besides the measurements. */
    record RunInfo(String runId, String profile, String startedAt, String finishedAt, GitInfo commit,
                   Environment environment, Map<String, Double> timings) {
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
        Map<String, Map<String, Stats.Summary>> startup = results.startup();
        String fp12 = info.environment().fingerprint().substring(0, 12);
        List<Map<String, Object>> throughput = new ArrayList<>();
        List<Map<String, Object>> costs = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            if (!cell.ok()) {
                continue; // a failed cell has no numbers, so no benchmark entries either
            }
            cell.metrics().forEach((id, s) -> {
                String name = cell.key().variant() + "/" + cell.key().scenario() + "/" + cell.key().regime() + "/" + id;
                (manifest.metric(id).biggerIsBetter() ? throughput : costs)
                        .add(benchEntry(name, manifest.metric(id).unit(), s, info.profile(), fp12));
            });
        }
        startup.forEach((variant, metrics) -> metrics.forEach((id, s) ->
                costs.add(benchEntry(variant + "/startup/-/" + id, manifest.metric(id).unit(), s, info.profile(), fp12))));
        AtomicFiles.writeJson(dir.resolve(THROUGHPUT_FILE), throughput);
        AtomicFiles.writeJson(dir.resolve(COSTS_FILE), costs);
        AtomicFiles.writeString(dir.resolve("summary.md"), summaryMarkdown(info, tablesMarkdown));
        if (ChildProcesses.shuttingDown()) {
            return; // interrupted: never leave a run.json that would make the run look complete
        }
        AtomicFiles.writeJson(dir.resolve("run.json"), runJson(info, results, cells, startup));
    }

    private Map<String, Object> runJson(RunInfo info, RunResults results, List<RunResults.CellSummary> cells,
                                        Map<String, Map<String, Stats.Summary>> startup) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("schemaVersion", 1);
        run.put("runId", info.runId());
        run.put("status", cells.stream().allMatch(RunResults.CellSummary::ok) ? "ok" : "failed");
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
        List<Object> variants = new ArrayList<>();
        startup.forEach((variant, metrics) -> {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("name", variant);
            Map<String, Object> startupMetrics = new LinkedHashMap<>();
            metrics.forEach((id, s) -> startupMetrics.put(id,
                    summary(id, s, results.startupValues().get(variant).get(id))));
            entry.put("startup", startupMetrics);
            variants.add(entry);
        });
        run.put("variants", variants);
        List<Object> cellList = new ArrayList<>();
        for (RunResults.CellSummary cell : cells) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("variant", cell.key().variant());
            entry.put("scenario", cell.key().scenario());
            entry.put("regime", cell.key().regime());
            entry.put("status", cell.ok() ? "ok" : "failed");
            entry.put("reason", cell.reason());
            List<Object> reps = new ArrayList<>();
            for (RunResults.Repetition rep : cell.repetitions()) {
                Map<String, Object> r = new LinkedHashMap<>();
                r.put("index", rep.index());
                r.put("status", rep.ok() ? "ok" : "failed");
                r.put("reason", rep.reason());
                // No numbers anywhere in a failed cell, not even from its repetitions that went well.
                r.put("metrics", cell.ok() ? round(rep.metrics()) : Map.of());
                r.put("report", rep.report());
                reps.add(r);
            }
            entry.put("repetitions", reps);
            if (cell.ok()) {
                Map<String, Object> metrics = new LinkedHashMap<>();
                cell.metrics().forEach((id, s) -> metrics.put(id, summary(id, s, cell.values().get(id))));
                entry.put("metrics", metrics);
            }
            cellList.add(entry);
        }
        run.put("cells", cellList);
        run.put("timings", info.timings());
        return run;
    }

    private Map<String, Object> summary(String id, Stats.Summary s, List<Double> values) {
        Manifest.MetricDefinition metric = manifest.metric(id);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("unit", metric.unit());
        out.put("direction", metric.direction());
        out.put("n", s.n());
        out.put("median", round(s.median()));
        out.put("min", round(s.min()));
        out.put("max", round(s.max()));
        out.put("spreadPct", Double.isFinite(s.spreadPct()) ? round(s.spreadPct()) : null);
        out.put("values", values.stream().map(ResultsWriter::round).toList());
        return out;
    }

    /** One github-action-benchmark entry: exactly name, unit, value, range, extra. */
    private static Map<String, Object> benchEntry(String name, String unit, Stats.Summary s, String profile, String fp12) {
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("name", name);
        entry.put("unit", unit);
        entry.put("value", round(s.median()));
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
                + ", JDK " + env.jdk() + ", PostgreSQL " + env.postgres() + "\n"
                + "- CPU pinning: service " + env.pinning().get("service") + ", Gatling " + env.pinning().get("gatling")
                + ", PostgreSQL " + env.pinning().get("postgres") + "\n"
                + (env.services().isEmpty() ? "" : "- services measured at URLs, not started by the runner (CPU/request"
                        + " from their own process_cpu_time, JIT compilation included; no startup metrics): "
                        + env.services().entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
                        .collect(java.util.stream.Collectors.joining(", ")) + "\n")
                + "- figures: median over n repetitions, ±spread = (max − min) / median; latencies and RPS are"
                + " Gatling's own numbers\n\n"
                + tables;
    }

    static double round(double value) {
        if (!Double.isFinite(value) || value == 0) {
            return value;
        }
        // 6 significant digits: far below any run-to-run noise, keeps the files readable.
        return new BigDecimal(value).round(new MathContext(6)).doubleValue();
    }

    private static Map<String, Double> round(Map<String, Double> metrics) {
        Map<String, Double> out = new LinkedHashMap<>();
        metrics.forEach((k, v) -> out.put(k, round(v)));
        return out;
    }
}
