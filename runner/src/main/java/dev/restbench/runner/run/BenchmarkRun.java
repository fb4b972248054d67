package dev.restbench.runner.run;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.runner.io.Trees;
import dev.restbench.runner.manifest.Manifest;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Executes a {@link RunSelection}: PostgreSQL and the dataset template once, then every step of the plan (fresh
 * database, start, health, warmup, one measured Gatling window per regime, stop), then the result files.
 *
 * <p>With {@code --services} the variants already run at URLs (the compose stack): each step reloads the dataset
 * into their database instead of cloning one, checks health instead of starting a process, and stops nothing.
 */
final class BenchmarkRun {
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    /** Planning guesses for the ETA only: a Gatling JVM's fixed cost, a service start, a database clone. */
    private static final double GATLING_OVERHEAD_S = 4;
    private static final double START_S = 8;

    private final Manifest manifest;
    private final RunSelection selection;
    private final RunOptions options;
    private final GatlingStatsReader reader;
    private final PrintStream out;
    private final Map<String, Double> timings = new LinkedHashMap<>();
    private final String runTagBase = HexFormat.of().formatHex(randomBytes());

    private RunResults results;
    private Progress progress;
    private PostgresServer postgres;
    private Path runDir;
    private String template;
    private int gatlingRuns;
    private Path snapshotDir;
    private AutoCloseable snapshotCleanup;
    private final Map<String, Path> snapshots = new LinkedHashMap<>();

    BenchmarkRun(Manifest manifest, RunSelection selection, RunOptions options, GatlingStatsReader reader,
                 PrintStream out) {
        this.manifest = manifest;
        this.selection = selection;
        this.options = options;
        this.reader = reader;
        this.out = out;
    }

    /** The results directory of this run (set once {@link #execute()} has started). */
    Path runDirectory() {
        return runDir;
    }

    /** @return 0 when every cell succeeded, 1 otherwise */
    int execute() throws Exception {
        ChildProcesses.installShutdownHook();
        Instant started = Instant.now();
        GitInfo commit = GitInfo.of(options.root());
        String runId = RUN_ID_TIME.format(started) + "-" + commit.shortId();
        runDir = options.resultsDir().resolve(runId);
        Files.createDirectories(runDir);
        results = new RunResults(selection);
        out.println("run " + runId + " → " + runDir);
        out.print(selection.describe());
        checkArtifacts();

        long t0 = System.nanoTime();
        snapshotArtifacts();
        postgres = startPostgres();
        ChildProcesses.register(postgres);
        Environment environment;
        try {
            environment = Environment.capture(options.manifest(), selection.profileName(), manifest.pinning(),
                    postgres.serverVersion(), !postgres.isEmbedded(), options.services());
            if (options.services().isEmpty()) {
                Manifest.Dataset d = selection.dataset();
                template = "restbench_tpl_" + selection.profile().dataset().replace('-', '_');
                out.printf("dataset template %s (%d categories, %d items)…%n", template, d.categories(), d.items());
                postgres.ensureTemplate(template, datasetSpec());
            }
            add("postgresAndDatasetS", t0);

            progress = new Progress(out, Progress.isTerminal(), selection.plan().steps().size(),
                    selection.plan().steps().stream().mapToDouble(this::plannedSeconds).sum());
            for (RunPlan.Step step : selection.plan().steps()) {
                if (ChildProcesses.shuttingDown()) {
                    break;
                }
                progress.step(step.variant().name() + " " + step.scenario().name() + " r" + step.repetition());
                runStep(step);
                progress.stepDone(plannedSeconds(step));
            }
            progress.finish();
        } finally {
            ChildProcesses.unregister(postgres);
            postgres.close();
            ChildProcesses.unregister(snapshotCleanup);
            Trees.delete(snapshotDir);
        }
        timings.put("totalS", seconds(System.nanoTime() - t0));

        SummaryTables tables = new SummaryTables(manifest, selection, results);
        ResultsWriter.RunInfo info = new ResultsWriter.RunInfo(runId, selection.profileName(),
                started.truncatedTo(ChronoUnit.SECONDS).toString(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commit, environment, timings);
        new ResultsWriter(manifest, runDir).writeAll(info, results, tables.markdown());
        if (options.printTables()) {
            out.println();
            out.print(tables.plainText());
        }
        out.println(timingLine());
        out.println("results: " + runDir);
        if (!tables.failures().isEmpty()) {
            out.println(tables.failures().size() + " cell(s) FAILED (see above); exit status 1");
            return 1;
        }
        return 0;
    }

    private DatasetSpec datasetSpec() {
        Manifest.Dataset d = selection.dataset();
        return new DatasetSpec(d.categories(), d.items(), d.heavyShare(), d.seed());
    }

    private void checkArtifacts() {
        List<String> missing = new ArrayList<>();
        for (Manifest.Variant variant : selection.variants()) {
            if (!options.services().containsKey(variant.name())
                    && !Files.isRegularFile(options.root().resolve(variant.artifact()))) {
                missing.add(variant.artifact());
            }
        }
        Path classpath = options.root().resolve("gatling/target/gatling-classpath.txt");
        if (!Files.isRegularFile(classpath)) {
            missing.add(options.root().relativize(classpath).toString());
        }
        if (!missing.isEmpty()) {
            // Not fatal: a missing variant jar is that variant's failed cells. Gatling missing fails them all.
            out.println("warning: missing " + String.join(", ", missing) + " (./mvnw -B -q package -DskipTests builds them)");
        }
    }

    /**
     * Copies every variant artifact to a private directory first: all repetitions then run the same build, and a
     * rebuild in the working tree during the run (a fat jar read lazily) cannot break or change a variant midway.
     */
    private void snapshotArtifacts() throws IOException {
        snapshotDir = Files.createTempDirectory("restbench-artifacts-");
        Path dir = snapshotDir;
        snapshotCleanup = () -> Trees.delete(dir);
        ChildProcesses.register(snapshotCleanup); // also on Ctrl-C
        for (Manifest.Variant variant : selection.variants()) {
            Path artifact = options.root().resolve(variant.artifact());
            if (!options.services().containsKey(variant.name()) && Files.isRegularFile(artifact)) {
                Path copy = snapshotDir.resolve(variant.name()).resolve(artifact.getFileName());
                Files.createDirectories(copy.getParent());
                Files.copy(artifact, copy);
                snapshots.put(variant.name(), copy);
            }
        }
    }

    private PostgresServer startPostgres() throws IOException, InterruptedException {
        if (options.databaseUrl().isPresent()) {
            out.println("PostgreSQL: external " + options.databaseUrl().get() + " (not pinned by the runner"
                    + (options.services().isEmpty() ? ")" : "; the dataset is reloaded into it before every cell)"));
            return PostgresServer.external(options.databaseUrl().get(), options.databaseUser(), options.databasePassword());
        }
        PostgresServer server = PostgresServer.embedded(0, true);
        pinTree(server.pid(), manifest.pinning().postgres());
        out.println("PostgreSQL: embedded " + server.serverVersion() + " on port " + server.port()
                + " (fsync and synchronous_commit on, pinned to CPU " + manifest.pinning().postgres() + ")");
        return server;
    }

    /** Pins a running process and its current descendants; backends forked later inherit the postmaster's set. */
    private static void pinTree(long pid, String cpuSet) throws IOException, InterruptedException {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        for (long p : pids) {
            Process taskset = new ProcessBuilder("taskset", "-a", "-p", "-c", cpuSet, Long.toString(p))
                    .redirectErrorStream(true).start();
            taskset.getInputStream().readAllBytes();
            taskset.waitFor();
        }
    }

    private double plannedSeconds(RunPlan.Step step) {
        Manifest.Profile p = selection.profile();
        double warmup = p.warmupSeconds() > 0 ? p.warmupSeconds() + GATLING_OVERHEAD_S : 0;
        return START_S + warmup + step.regimes().size() * (p.windowSeconds() + GATLING_OVERHEAD_S);
    }

    private void runStep(RunPlan.Step step) {
        String url = options.services().get(step.variant().name());
        if (url != null) {
            runStepAt(step, url);
            return;
        }
        String stepName = step.variant().name() + "-" + step.scenario().name() + "-r" + step.repetition();
        String database = "restbench_cell";
        String jdbcUrl;
        long t = System.nanoTime();
        try {
            jdbcUrl = postgres.createDatabaseFromTemplate(template, database);
        } catch (RuntimeException e) {
            failAll(step, "fresh database from the template failed: " + e.getMessage());
            return;
        }
        add("databaseCloneS", t);
        Path artifact = snapshots.get(step.variant().name());
        if (artifact == null) {
            failAll(step, "artifact " + step.variant().artifact() + " does not exist (build it first)");
            return;
        }
        try {
            ServiceProcess.Launch launch = launch(step.variant(), artifact, jdbcUrl);
            t = System.nanoTime();
            try (ServiceProcess service = ServiceProcess.start(launch, runDir.resolve("logs").resolve(stepName + ".log"))) {
                long readyMs = service.awaitHealthy(Duration.ofSeconds(manifest.defaults().healthTimeoutSeconds()));
                add("startupS", t);
                recordStartup(step.variant().name(), service, readyMs);
                warmupAndMeasure(step, service);
                t = System.nanoTime();
            }
            add("stopS", t);
        } catch (ServiceProcess.StartFailure e) {
            failAll(step, "start: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failAll(step, "interrupted");
        } catch (IOException | RuntimeException e) {
            failAll(step, "runner error: " + e);
        } finally {
            try {
                postgres.dropDatabase(database);
            } catch (RuntimeException e) {
                // the next step's createDatabaseFromTemplate drops it anyway
            }
        }
    }

    /** A step on a variant that already runs at {@code url}: reload its data, check its health, measure. */
    private void runStepAt(RunPlan.Step step, String url) {
        long t = System.nanoTime();
        try {
            postgres.reloadDataset(datasetSpec());
        } catch (RuntimeException e) {
            failAll(step, e.getMessage());
            return;
        }
        add("datasetReloadS", t);
        ServiceEndpoint service = new ServiceEndpoint(url, healthPath(step.variant()), metricsPath(step.variant()));
        try {
            service.awaitHealthy(Duration.ofSeconds(manifest.defaults().healthTimeoutSeconds()));
            warmupAndMeasure(step, service);
        } catch (ServiceProcess.StartFailure e) {
            failAll(step, "health: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failAll(step, "interrupted");
        } catch (IOException | RuntimeException e) {
            failAll(step, "runner error: " + e);
        }
    }

    /** The warmup (its failure fails every regime of the step), then one measured window per regime. */
    private void warmupAndMeasure(RunPlan.Step step, ServiceUnderTest service) throws IOException, InterruptedException {
        if (selection.profile().warmupSeconds() > 0) {
            long t = System.nanoTime();
            String problem = warmup(step, service);
            add("warmupS", t);
            if (problem != null) {
                failAll(step, problem);
                return;
            }
        }
        for (String regime : step.regimes()) {
            measure(step, regime, service);
        }
    }

    private String healthPath(Manifest.Variant variant) {
        return variant.healthPath() != null ? variant.healthPath() : manifest.defaults().healthPath();
    }

    private String metricsPath(Manifest.Variant variant) {
        return variant.metricsPath() != null ? variant.metricsPath() : manifest.defaults().metricsPath();
    }

    private ServiceProcess.Launch launch(Manifest.Variant variant, Path artifact, String jdbcUrl) throws IOException {
        Manifest.Defaults defaults = manifest.defaults();
        int port = variant.port() == null || variant.port() == 0 ? ServiceProcess.freePort() : variant.port();
        List<String> jvmOptions = variant.jvmOptions() != null ? variant.jvmOptions() : defaults.jvmOptions();
        List<String> template = variant.command() != null ? variant.command() : defaults.command();
        List<String> command = new ArrayList<>();
        for (String arg : template) {
            if (arg.equals("{jvmOptions}")) {
                command.addAll(jvmOptions);
            } else {
                command.add(arg.replace("{artifact}", artifact.toString()).replace("{port}", Integer.toString(port))
                        .replace("{java}", Path.of(System.getProperty("java.home"), "bin", "java").toString()));
            }
        }
        if (command.get(0).equals("java")) {
            // The JDK the runner runs on, not whatever `java` is first on PATH: the environment record says which.
            command.set(0, Path.of(System.getProperty("java.home"), "bin", "java").toString());
        }
        Map<String, String> env = new LinkedHashMap<>(defaults.env());
        if (variant.env() != null) {
            env.putAll(variant.env());
        }
        env.put("PORT", Integer.toString(port));
        env.put("BIND_ADDRESS", "127.0.0.1");
        env.put("DB_URL", jdbcUrl);
        env.put("DB_USER", postgres.user());
        env.put("DB_PASSWORD", postgres.password());
        String cpuSet = variant.cpuSet() != null ? variant.cpuSet() : manifest.pinning().service();
        return new ServiceProcess.Launch(command, env, port, cpuSet, healthPath(variant), metricsPath(variant));
    }

    private void recordStartup(String variant, ServiceProcess service, long readyMs) {
        Map<String, Double> startup = new LinkedHashMap<>();
        startup.put("time_to_ready_ms", (double) readyMs);
        ProcFs.rssKb(service.pid()).ifPresent(kb -> startup.put("rss_after_start_mb", kb / 1024.0));
        try {
            startup.putAll(ServiceMetrics.startup(service.scrape()));
        } catch (Exception e) {
            progress.event(variant + ": first metrics scrape failed: " + e.getMessage());
        }
        results.addStartup(variant, startup);
    }

    /** @return null when the warmup went through, else the reason the step fails */
    private String warmup(RunPlan.Step step, ServiceUnderTest service) throws IOException, InterruptedException {
        Map<String, String> props = baseProperties(step, service, "warmup", selection.profile().warmupSeconds());
        props.put("users", number(warmupUsers(step.scenario())));
        // The warmup is discarded: a cold JVM may fail or be slow; only a crash matters here.
        props.put("maxErrorPct", "100");
        props.put("maxP99Ms", "600000");
        Path work = runDir.resolve("gatling").resolve(".warmup");
        GatlingLauncher.Outcome outcome = gatling().run(step.scenario().simulation(), props, false, work,
                runDir.resolve("logs").resolve(step.variant().name() + "-" + step.scenario().name() + "-warmup-r"
                        + step.repetition() + ".gatling.log"), noWindow());
        Trees.delete(work);
        if (!service.isAlive()) {
            return service.deathReason("during the warmup");
        }
        if (outcome.exitCode() != 0 && outcome.exitCode() != 2) {
            return "warmup: Gatling exited with code " + outcome.exitCode() + ": " + outcome.lastLines();
        }
        return null;
    }

    /** The warmup runs at the capacity regime's concurrency: the JIT only compiles what runs hot. */
    private double warmupUsers(Manifest.Scenario scenario) {
        Manifest.Regime capacity = scenario.regimes().get("capacity");
        return scaled("users", capacity != null && capacity.load().containsKey("users") ? capacity.load().get("users") : 8);
    }

    private void measure(RunPlan.Step step, String regime, ServiceUnderTest service) throws IOException, InterruptedException {
        RunResults.CellKey key = new RunResults.CellKey(step.variant().name(), step.scenario().name(), regime);
        String cellDir = key.name() + "-r" + step.repetition();
        Map<String, String> props = baseProperties(step, service, regime, selection.profile().windowSeconds());
        step.scenario().regimes().get(regime).load().forEach((name, value) -> props.put(name,
                number(scaled(name, value))));
        props.put("maxErrorPct", number(manifest.errorBudget().maxErrorPct()));
        props.put("maxP99Ms", Long.toString(Math.round(manifest.errorBudget().capacityP99Ms())));
        Path work = runDir.resolve("gatling").resolve(".work-" + cellDir);
        WindowSampler window = new WindowSampler(service);
        long t = System.nanoTime();
        GatlingLauncher.Outcome outcome = gatling().run(step.scenario().simulation(), props, true, work,
                runDir.resolve("logs").resolve(cellDir + ".gatling.log"), window);
        add("gatlingS", t);
        if (window.complete()) {
            timings.merge("measuredWindowsS", window.windowSeconds(), Double::sum);
        }
        Path report = runDir.resolve("gatling").resolve(cellDir);
        if (outcome.reportDir() != null) {
            Trees.delete(report);
            Files.move(outcome.reportDir(), report);
        }
        Trees.delete(work);
        String reportPath = Files.isRegularFile(report.resolve("index.html")) ? "gatling/" + cellDir + "/index.html" : null;
        String failure = null;
        GatlingStats stats = null;
        if (!service.isAlive()) {
            failure = service.deathReason("during the window");
        } else if (outcome.exitCode() != 0 && outcome.exitCode() != 2) {
            failure = "Gatling exited with code " + outcome.exitCode() + ": " + outcome.lastLines();
        } else if (outcome.reportDir() == null) {
            failure = "Gatling wrote no results";
        } else {
            try {
                stats = reader.read(report);
            } catch (IOException | RuntimeException e) {
                failure = "cannot read Gatling's results: " + e.getMessage();
            }
        }
        if (failure == null && outcome.exitCode() == 2) {
            failure = "Gatling assertion failed: " + (outcome.assertionLines().isEmpty() ? "(see the Gatling log)"
                    : String.join("; ", outcome.assertionLines()));
        }
        if (failure == null && stats.requests() == 0) {
            failure = "no requests were completed in the window";
        }
        if (failure == null && stats.errorPct() > manifest.errorBudget().maxErrorPct()) {
            failure = String.format(Locale.ROOT, "error rate %.2f%% exceeds the budget of %.2f%%", stats.errorPct(),
                    manifest.errorBudget().maxErrorPct());
        }
        if (failure == null && regime.equals("capacity") && stats.p99() > manifest.errorBudget().capacityP99Ms()) {
            failure = String.format(Locale.ROOT, "p99 %.0f ms exceeds the capacity bound of %.0f ms", stats.p99(),
                    manifest.errorBudget().capacityP99Ms());
        }
        if (failure != null) {
            results.add(key, new RunResults.Repetition(step.repetition(), false, failure, Map.of(), reportPath));
            progress.event(key.name() + " r" + step.repetition() + " FAILED: " + failure);
            return;
        }
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("throughput", stats.meanRps());
        metrics.put("latency_p50", stats.p50());
        metrics.put("latency_p95", stats.p95());
        metrics.put("latency_p99", stats.p99());
        metrics.put("latency_max", stats.max());
        metrics.put("error_pct", stats.errorPct());
        metrics.putAll(ServiceMetrics.window(window, stats.requests()));
        results.add(key, new RunResults.Repetition(step.repetition(), true, null, metrics, reportPath));
        progress.event(String.format(Locale.ROOT, "%s r%d: %.0f req/s, p99 %.0f ms, err %.2f%%, CPU %s µs/req",
                key.name(), step.repetition(), stats.meanRps(), stats.p99(), stats.errorPct(),
                metrics.containsKey("cpu_us_per_req") ? String.format(Locale.ROOT, "%.0f", metrics.get("cpu_us_per_req")) : "?"));
    }

    private double scaled(String loadName, double value) {
        double v = value * selection.profile().scale();
        return loadName.equals("users") ? Math.max(1, Math.round(v)) : Math.max(1, v);
    }

    private Map<String, String> baseProperties(RunPlan.Step step, ServiceUnderTest service, String regime, int seconds) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("baseUrl", service.baseUrl());
        props.put("dialect", step.variant().dialect());
        props.put("regime", regime);
        props.put("duration", Integer.toString(seconds));
        props.put("dataset.categories", Integer.toString(selection.dataset().categories()));
        props.put("dataset.items", Integer.toString(selection.dataset().items()));
        // Writers name their rows W<tag>…: unique per Gatling run, so no sku/code ever collides.
        props.put("runTag", (runTagBase + Integer.toString(gatlingRuns++, 36)));
        return props;
    }

    private GatlingLauncher gatling() {
        return new GatlingLauncher(options.root(), manifest.pinning().gatling());
    }

    private static GatlingLauncher.WindowListener noWindow() {
        return new GatlingLauncher.WindowListener() {
            @Override
            public void started() {
            }

            @Override
            public void completed() {
            }
        };
    }

    private void failAll(RunPlan.Step step, String reason) {
        for (String regime : step.regimes()) {
            RunResults.CellKey key = new RunResults.CellKey(step.variant().name(), step.scenario().name(), regime);
            results.add(key, new RunResults.Repetition(step.repetition(), false, reason, Map.of(), null));
        }
        progress.event(step.variant().name() + " " + step.scenario().name() + " r" + step.repetition() + " FAILED: " + reason);
    }

    private void add(String timing, long sinceNanos) {
        timings.merge(timing, seconds(System.nanoTime() - sinceNanos), Double::sum);
    }

    private static double seconds(long nanos) {
        return Math.round(nanos / 1e7) / 100.0;
    }

    private String timingLine() {
        StringBuilder line = new StringBuilder("wall time:");
        timings.forEach((k, v) -> line.append(String.format(Locale.ROOT, " %s=%.1f", k, v)));
        return line.toString();
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[3];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
