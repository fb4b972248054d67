package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.gatling.results.GatlingResults;
import dev.restbench.gatling.results.GlobalStats;
import dev.restbench.runner.Main;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real smoke profile end to end: embedded PostgreSQL, the three variant jars of this checkout, real Gatling.
 * One more variant, a copy of the first JVM one on a JDK this machine lacks, runs with --missing-runtimes record: its
 * cells are failed with the reason, the others measured all the same.
 * Checks the outputs against their contracts, and that each cell's windows are back-to-back slices of that cell's
 * one Gatling run (checked against Gatling's own report of the run). Performance is not asserted (shared noisy box): the error budget and capacity latency bound are lifted
 * so an overloaded machine cannot fail a cell, but every cell must then succeed.
 */
class SmokeProfileEndToEndTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @Test
    void smokeProfileWritesCompleteValidResults(@TempDir Path tmp) throws Exception {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        List<String> missing = new ArrayList<>();
        // One variant of each way to be started and read (runtime, dialect, AOT cache), the first of each in
        // manifest order: every launch path and every metric source runs end to end, while the contract suites
        // start every variant. The whole manifest here grew CI by a minute per variant.
        Map<String, dev.restbench.manifest.Manifest.Variant> kinds = new java.util.LinkedHashMap<>();
        for (dev.restbench.manifest.Manifest.Variant v
                : dev.restbench.runner.manifest.Manifests.load(ROOT.resolve("benchmarks.json")).variants()) {
            kinds.putIfAbsent(v.runtime().name() + "/" + v.dialect() + "/" + v.aotCache(), v);
        }
        List<dev.restbench.manifest.Manifest.Variant> selected = List.copyOf(kinds.values());
        // Resolved through the loader: an entry that extends another inherits its artifact.
        for (dev.restbench.manifest.Manifest.Variant v : selected) {
            if (!Files.exists(ROOT.resolve(v.artifact()))) {
                missing.add(v.name() + ": " + v.artifact());
            }
        }
        if (!Files.isRegularFile(ROOT.resolve("gatling/target/gatling-classpath.txt"))) {
            missing.add("gatling/target/gatling-classpath.txt");
        }
        // Built by ./run-tests before ./mvnw verify; a test that skips itself when they are missing would pass unseen.
        assertThat(missing).as("build the variants first (./bench build; ./run-tests does)").isEmpty();
        // Overload is not breakage: on a saturated shared box latencies and timeouts explode, so the test lifts
        // the error budget and the latency bound; what must not happen is a crash, a failed start or wrong numbers.
        ((ObjectNode) manifest.get("errorBudget")).put("capacityP99Ms", 600000).put("maxErrorPct", 100);
        // A warmup cycle of load and idle before the until-steady part (issue 21's start protocols): the idle must
        // be idle, checked below against Gatling's own log.
        ((ObjectNode) manifest.get("profiles").get("smoke").get("warmup")).putObject("cycles").put("count", 1)
                .put("loadSeconds", 1).put("idleSeconds", 4);
        manifest.remove("$schema");
        // A runtime no machine has (the schema's highest version): the CI runner without one of its JDKs.
        String base = selected.stream().filter(v -> v.runtime().isJdk()).findFirst().orElseThrow().name();
        String absent = base + "-jdk99";
        ((com.fasterxml.jackson.databind.node.ArrayNode) manifest.get("variants")).addObject().put("name", absent)
                .put("extends", base).putObject("runtime").put("name", "jdk").put("version", 99);
        Path manifestFile = tmp.resolve("benchmarks.json");
        Json.MAPPER.writeValue(manifestFile.toFile(), manifest);
        Path results = tmp.resolve("results");

        java.io.PrintStream console = System.out;
        java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
        System.setOut(new java.io.PrintStream(new java.io.OutputStream() { // to the log and to the assertions
            @Override
            public void write(int b) {
                console.write(b);
                printed.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                console.write(b, off, len);
                printed.write(b, off, len);
            }
        }, true, java.nio.charset.StandardCharsets.UTF_8));
        int exit;
        try {
            exit = Main.execute(List.of("run", "--root", ROOT.toString(), "--manifest", manifestFile.toString(),
                    "--profile", "smoke", "--results", results.toString(), "--no-build", "--flamegraphs",
                    "--missing-runtimes", "record",
                    "--variants", String.join(",", selected.stream().map(v -> v.name()).toList()) + "," + absent));
        } finally {
            System.setOut(console);
        }
        // The terminal's answer: the primary metrics of both regimes, each line within 100 columns (issue 13).
        String answer = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(answer).contains(absent + ": not measured, no JDK 99 on this machine");
        answer = answer.substring(answer.indexOf("capacity: value"));
        assertThat(answer).contains("latency: value").contains("startup").contains("summary.md there, or --full-tables");
        assertThat(answer.lines().takeWhile(l -> !l.startsWith("wall time")))
                .allSatisfy(line -> assertThat(line.codePointCount(0, line.length())).as(line).isLessThanOrEqualTo(100));

        Path runDir = RunOutputs.onlyRun(results);
        JsonNode run = RunOutputs.validRunJson(runDir);
        List<String> failures = new ArrayList<>();
        List<JsonNode> measured = new ArrayList<>();
        run.get("cells").forEach(c -> {
            if (c.get("variant").asText().equals(absent)) {
                // Never begun: not measured (not failed) with the runtime's reason, no numbers.
                assertThat(c.get("status").asText()).isEqualTo("not-measured");
                assertThat(c.get("reason").asText()).startsWith("runtime: no JDK 99 on this machine: looked at");
                assertThat(c.has("metrics")).isFalse();
            } else if (!c.get("status").asText().equals("ok")) {
                failures.add(c.get("variant").asText() + "/" + c.get("regime").asText() + ": " + c.get("reason").asText());
            } else {
                measured.add(c);
            }
        });
        assertThat(failures).as("failed cells").isEmpty();
        // The absent runtime's cells were never begun: they fail nothing, so the run is ok.
        assertThat(exit).as("a run whose only gap is a runtime this machine lacks").isZero();
        assertThat(run.get("status").asText()).isEqualTo("ok");
        // Each start's second cell (latency) read the dataset reloaded in place under the service's open pool.
        assertThat(run.path("timings").path("datasetReloadS").asDouble()).as(run.path("timings").toString())
                .isPositive();
        int variants = selected.size();
        assertThat(run.get("cells")).hasSize(2 * (variants + 1)); // every variant × read-heavy × (capacity, latency)
        assertThat(measured).hasSize(2 * variants);
        assertThat(run.get("variants")).hasSize(variants + 1);
        Map<String, Boolean> jvm = new HashMap<>();
        selected.forEach(v -> jvm.put(v.name(), v.runtime().isJdk()));
        // Allocation is counted by the JVM and by Go's runtime; Node's client has no such counter.
        Map<String, Boolean> allocationCounted = new HashMap<>();
        selected.forEach(v -> allocationCounted.put(v.name(), v.runtime().isJdk() || "go".equals(v.labels().get("language"))));

        JsonNode throughput = RunOutputs.validBenchFile(runDir.resolve("bench-throughput.json"));
        JsonNode costs = RunOutputs.validBenchFile(runDir.resolve("bench-costs.json"));
        Map<String, Double> benchValues = new HashMap<>();
        throughput.forEach(e -> benchValues.put(e.get("name").asText(), e.get("value").asDouble()));
        costs.forEach(e -> benchValues.put(e.get("name").asText(), e.get("value").asDouble()));
        // The alert's input holds no metric shown only (its ratio means nothing: 0 → 0.002 plans would alert as ∞);
        // run.json keeps it (below).
        assertThat(benchValues.keySet()).isNotEmpty().noneMatch(name -> name.endsWith("/sql_plans_per_req"));
        // github-action-benchmark's direction is per file: the bigger-is-better metrics, and only they, in one.
        assertThat(throughput).allSatisfy(e -> assertThat(e.get("name").asText()).matches(".*/(throughput|req_per_cpu_s)"));
        assertThat(costs).noneSatisfy(e -> assertThat(e.get("name").asText()).matches(".*/(throughput|req_per_cpu_s)"));

        // The warmup's cycles run in each start's first cell only: one cell per variant here (one start each).
        Map<String, Integer> cycledCells = new HashMap<>();
        for (JsonNode cell : measured) {
            String series = cell.get("variant").asText() + "/" + cell.get("scenario").asText() + "/"
                    + cell.get("regime").asText() + "/";
            JsonNode metrics = cell.get("metrics");
            boolean onJvm = jvm.get(cell.get("variant").asText());
            assertThat(metrics.fieldNames()).toIterable().as(series).contains("throughput", "latency_p50",
                    "latency_p95", "latency_p99", "latency_max", "error_pct");
            List<String> jvmOnly = List.of("heap_mean_mb", "heap_peak_mb", "gc_ms_per_s",
                    "jit_cpu_ms_per_s", "threads_peak", "hikari_active_mean", "hikari_active_peak");
            if (onJvm) {
                assertThat(metrics.fieldNames()).toIterable().as(series).containsAll(jvmOnly);
            } else {
                // What the runtime does not have is absent, never a zero.
                assertThat(metrics.fieldNames()).toIterable().as(series).doesNotContainAnyElementsOf(jvmOnly);
            }
            // A window's CPU is a figure only where 10 ms ticks resolve it to 10 % (WindowMetrics): the latency
            // regime's few requests in a 2 s window may have none, and then the cell has none; never a 0.
            if (metrics.has("cpu_us_per_req")) {
                assertThat(metrics.get("cpu_us_per_req").get("median").asDouble()).as(series).isPositive();
                assertThat(metrics.fieldNames()).toIterable().as(series).contains("req_per_cpu_s");
            } else {
                assertThat(metrics.fieldNames()).toIterable().as(series).doesNotContain("req_per_cpu_s");
            }
            if (cell.get("regime").asText().equals("capacity")) {
                assertThat(metrics.fieldNames()).toIterable().as(series).contains("cpu_us_per_req");
                assertThat(cell.get("bottleneck").asText()).isIn("service", "database", "load-generator", "none");
            }
            if (allocationCounted.get(cell.get("variant").asText())) {
                assertThat(metrics.get("alloc_bytes_per_req").get("median").asDouble()).as(series).isPositive();
            } else {
                assertThat(metrics.fieldNames()).toIterable().as(series).doesNotContain("alloc_bytes_per_req");
            }
            // Counted by PostgreSQL for every stack alike: read-heavy's reads are one statement (an item) or two (a
            // page and its count) each. Smoke's 2 s windows hold few requests on a busy box, and the requests in
            // flight at the edges (8 users) blur the ratio, hence the margin (StatementStatisticsTest is exact).
            assertThat(metrics.fieldNames()).toIterable().as(series)
                    .contains("sql_statements_per_req", "sql_rows_per_req", "sql_blocks_per_req",
                            "sql_text_bytes_per_req", "sql_plans_per_req");
            if (cell.get("regime").asText().equals("capacity")) {
                assertThat(metrics.get("sql_statements_per_req").get("median").asDouble()).as(series).isBetween(0.5, 3.0);
                assertThat(metrics.get("sql_rows_per_req").get("median").asDouble()).as(series).isGreaterThan(1.0);
                // Each statement reads at least one page: an item by its key (the index's path and a heap page).
                assertThat(metrics.get("sql_blocks_per_req").get("median").asDouble()).as(series)
                        .isGreaterThan(metrics.get("sql_statements_per_req").get("median").asDouble());
                // Each statement's text is a few dozen to a few hundred bytes, constants replaced.
                assertThat(metrics.get("sql_text_bytes_per_req").get("median").asDouble()
                        / metrics.get("sql_statements_per_req").get("median").asDouble()).as(series)
                        .isBetween(20.0, 2_000.0);
                // The planner runs at most once per statement: once if sent unprepared, not at all for a prepared
                // statement reusing its plan (StatementStatisticsTest shows both exactly).
                assertThat(metrics.get("sql_plans_per_req").get("median").asDouble()).as(series)
                        .isBetween(0.0, 1.1 * metrics.get("sql_statements_per_req").get("median").asDouble());
                // read-heavy's answers are an item (a few hundred bytes with headers) or a page of 20 (18-23 KB:
                // a tenth of the items carry 5 KB descriptions); a handful of requests per window.
                assertThat(metrics.get("response_bytes_per_req").get("median").asDouble()).as(series)
                        .isBetween(200.0, 60_000.0);
            }
            JsonNode trial = cell.get("trials").get(0);
            // --flamegraphs: a JVM cell's profiling window left two HTML graphs with the service's own frames; any
            // other says why it has none.
            JsonNode graphs = trial.get("flameGraphs");
            if (onJvm) {
                assertThat(graphs.get("reason").isNull()).as(series + " " + graphs).isTrue();
                for (String kind : List.of("cpu", "alloc")) {
                    Path html = runDir.resolve(graphs.get(kind).asText());
                    assertThat(Files.readString(html)).as(series + kind).contains("<html");
                    // Under capacity load the service's own request path is in the samples; at the latency
                    // regime's 5 req/s ten seconds may hold none of them.
                    if (cell.get("regime").asText().equals("capacity")) {
                        String collapsed = Files.readString(html.resolveSibling(kind + ".collapsed.txt"));
                        assertThat(collapsed).as(series + kind).contains("dev/restbench/");
                        // Whole stacks: every sample of the service's own code hangs under its thread's entry frame,
                        // not under a truncated root (JFR's default 64 frames cut Spring Data REST's).
                        assertThat(rootsOfOwnSamples(collapsed)).as(series + kind).allSatisfy(root ->
                                assertThat(root).matches("java/lang/(Thread|VirtualThread)\\.run.*"));
                    }
                }
            } else {
                assertThat(graphs.get("cpu").isNull()).isTrue();
                assertThat(graphs.get("reason").asText()).contains("no JVM");
            }
            // smoke: min 4 s, cap 6 s; in the start's first cell after the cycle's 1 s of load and 4 s of idle; after
            // a re-measure (compilers busy in the windows of a settled warmup) also the 2 × 2 s discarded windows and
            // the resumed warmup's 4-6 s
            String cellName = series.replace("/", "-").replaceAll("-$", "") + "-s1";
            String warmupLog = Files.readString(runDir.resolve("logs").resolve(cellName + ".warmup.tsv"));
            java.util.regex.Matcher idle = java.util.regex.Pattern.compile("idle from (\\d+) to (\\d+)").matcher(
                    warmupLog);
            boolean cycled = idle.find();
            if (cycled) {
                cycledCells.merge(cell.get("variant").asText(), 1, Integer::sum);
                // What the compilers did in the idle: the reading that tells a drained queue from a quiet one.
                if (onJvm) {
                    assertThat(warmupLog).as(series).containsPattern("idle from \\d+ to \\d+ \\(epoch ms\\),"
                            + " compilers \\d+ ms/s over the idle\n");
                } else {
                    assertThat(warmupLog).as(series).doesNotContain("compilers");
                }
            }
            boolean remeasured = warmupLog.contains("# re-measure 1:");
            assertThat(trial.get("warmupSeconds").asDouble())
                    .as(series + (cycled ? " with the cycle" : "") + (remeasured ? " and a re-measure" : ""))
                    .isBetween((cycled ? 9.0 : 4.0) + (remeasured ? 8.0 : 0),
                            (cycled ? 13.5 : 6.5) + (remeasured ? 10.5 : 0));
            if (remeasured && !trial.get("steady").asBoolean()) {
                // A latency start's queue rule may add its own reason after it ("; draining: …").
                assertThat(trial.get("unsteadyReason").asText()).as(series).contains(", after one re-measure");
            }
            // The service's and PostgreSQL's CPU are counted in 10 ms ticks: the smoke latency windows (2 s at
            // 5 req/s, 10 single-row reads) can cost either less than one tick, which is 0, not an error (a CI run
            // read 0 for a warm service there).
            for (String process : List.of("service", "postgres")) {
                double share = trial.get("utilisation").get(process).asDouble();
                if (cell.get("regime").asText().equals("capacity")) {
                    assertThat(share).as(series + " " + process).isPositive();
                } else {
                    assertThat(share).as(series + " " + process).isNotNegative();
                }
            }
            assertThat(trial.get("utilisation").get("loadGenerator").asDouble()).isPositive();
            // The windows are slices of ONE Gatling run per cell: back to back, inside that run, and what they
            // count is what Gatling's own report counted over the whole run at most.
            String report = trial.get("report").asText();
            assertThat(runDir.resolve(report)).isRegularFile();
            GlobalStats gatling = GatlingResults.readGlobalStats(runDir.resolve(report).getParent());
            JsonNode windows = trial.get("windows");
            assertThat(windows).hasSize(2);
            double windowed = 0;
            for (int k = 0; k < windows.size(); k++) {
                JsonNode window = windows.get(k);
                windowed += window.get("metrics").get("throughput").asDouble() * window.get("seconds").asDouble();
                assertThat(window.get("metrics").get("latency_max").asDouble()).isLessThanOrEqualTo(gatling.maxMs());
                if (k > 0) {
                    JsonNode previous = windows.get(k - 1);
                    long previousEnd = previous.get("startedAtMs").asLong()
                            + Math.round(previous.get("seconds").asDouble() * 1000);
                    assertThat(window.get("startedAtMs").asLong()).isCloseTo(previousEnd, org.assertj.core.data.Offset.offset(50L));
                }
            }
            assertThat(windowed).isPositive().isLessThan(gatling.total() + 0.5);
            // The cycle's idle: after 1.5 s of grace (the controller reads the pause file every 100 ms), no request
            // starts in it — every operation waits while the load is paused, in either model; unpaused, the closed
            // model would start hundreds in 2.4 s and the open model (2.5 iterations/s in smoke) about twelve.
            if (cycled) {
                long idleFrom = Long.parseLong(idle.group(1));
                long idleTo = Long.parseLong(idle.group(2));
                assertThat(idleTo - idleFrom).isBetween(3900L, 5000L);
                long startedIdle = dev.restbench.gatling.results.SimulationLog.read(runDir.resolve(report).getParent())
                        .startedBetween(idleFrom + 1500, idleTo - 100);
                assertThat(startedIdle).as(series + " requests started during the idle").isZero();
            }
            // Per operation (seed 004's table): the request names' counts add up to the windows' requests.
            long perOperation = 0;
            for (JsonNode op : trial.get("operations")) {
                perOperation += op.get("requests").asLong();
                assertThat(op.get("p99Ms").asLong()).isGreaterThanOrEqualTo(op.get("p50Ms").asLong());
            }
            assertThat((double) perOperation).as(series + " operations").isCloseTo(windowed,
                    org.assertj.core.data.Offset.offset(Math.max(1.0, windowed * 0.01)));
            assertThat(windows.get(0).get("startedAtMs").asLong()).isGreaterThan(gatling.runStart().toEpochMilli());
            assertThat(benchValues.get(series + "throughput")).isEqualTo(metrics.get("throughput").get("median").asDouble());
        }
        assertThat(cycledCells).as("cells with the warmup's cycle, per variant (one start each)")
                .containsOnlyKeys(selected.stream().map(v -> v.name()).toList())
                .allSatisfy((variant, cells) -> assertThat(cells).as(variant).isEqualTo(1));
        for (JsonNode variant : run.get("variants")) {
            if (variant.get("name").asText().equals(absent)) {
                assertThat(benchValues.keySet()).noneMatch(name -> name.startsWith(absent + "/"));
                continue;
            }
            if (jvm.get(variant.get("name").asText())) {
                assertThat(variant.get("startup").fieldNames()).toIterable()
                        .containsExactlyInAnyOrder("time_to_ready_ms", "rss_after_start_mb", "heap_after_start_mb",
                                "classes_loaded", "live_threads");
            } else {
                assertThat(variant.get("startup").fieldNames()).toIterable()
                        .containsExactlyInAnyOrder("time_to_ready_ms", "rss_after_start_mb");
            }
            assertThat(benchValues).containsKey(variant.get("name").asText() + "/startup/-/time_to_ready_ms");
        }
        String summary = Files.readString(runDir.resolve("summary.md"));
        List<String> names = selected.stream().map(v -> v.name()).toList();
        assertThat(summary).contains("## Scenarios and measures", "## Resources", "## Startup", "## Warmup and bottleneck",
                "## Per operation", "| Scenario | Regime | Measure | " + String.join(" | ", names) + " | " + absent + " |",
                "(n=1)", "## Cells not measured", absent + " / read-heavy / capacity: runtime: no JDK 99 on this machine");
        List<String> cellFolders = new ArrayList<>();
        names.forEach(v -> cellFolders.addAll(List.of(v + "-read-heavy-capacity-s1", v + "-read-heavy-latency-s1")));
        try (var leftovers = Files.list(runDir.resolve("gatling"))) {
            assertThat(leftovers.map(p -> p.getFileName().toString())).containsExactlyInAnyOrderElementsOf(cellFolders);
        }
    }

    /** The root frame of each collapsed stack ("root;…;leaf count") that passes through the service's own code. */
    static java.util.Set<String> rootsOfOwnSamples(String collapsed) {
        return collapsed.lines().filter(line -> line.contains("dev/restbench/"))
                .map(line -> line.substring(0, line.indexOf(';') < 0 ? line.lastIndexOf(' ') : line.indexOf(';')))
                .collect(java.util.stream.Collectors.toCollection(java.util.TreeSet::new));
    }
}
