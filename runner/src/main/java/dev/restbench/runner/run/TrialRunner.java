package dev.restbench.runner.run;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.dataset.StatementStatistics;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.io.Trees;
import dev.restbench.manifest.Manifest;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One trial: a start of a variant on a fresh copy of the dataset, every cell of the plan measured in order by a
 * {@link CellSession} (the dataset reloaded in place before each cell but the first), then the stop. With
 * {@code --services} the variant already runs at a URL: the dataset is reloaded into its database instead, health is
 * awaited instead of a start, nothing is stopped.
 */
final class TrialRunner {

    /**
     * What the trials of one run share.
     *
     * @param unavailable variants whose runtime is not on this machine → why (run --missing-runtimes record)
     * @param serviceUser the user the services run as (BENCH_SERVICE_USER), empty for the runner's own
     * @param statements  PostgreSQL's statement counters (possibly unavailable, then the statement metrics are absent)
     */
    record Context(Manifest manifest, RunSelection selection, RunOptions options, PostgresServer postgres,
                   StatementStatistics statements, String template, Path runDir, Map<String, Path> artifacts, Map<String, String> unavailable,
                   RunResults results, Map<String, Double> timings, Consumer<String> events,
                   Optional<ServiceUser> serviceUser) {
    }

    /** A profiling window shorter than this holds too few samples to show a frame's share (100 per second). */
    static final int FLAME_GRAPH_MIN_SECONDS = 10;

    private final Context context;
    private final CellSession cells;
    private int gatlingRuns;
    private final String runTagBase;

    TrialRunner(Context context, String runTagBase) {
        this.context = context;
        this.runTagBase = runTagBase;
        Manifest.Pinning pinning = context.manifest().pinning();
        boolean external = !context.options().services().isEmpty();
        this.cells = new CellSession(context.options().root(), pinning.gatling(),
                WindowMetrics.CpuSets.of(external ? null : pinning.service(),
                        context.postgres().isEmbedded() ? pinning.postgres() : null, pinning.gatling()),
                context.postgres().isEmbedded() ? context.postgres().pid() : null, context.statements());
    }

    /**
     * Records the trial as not started (the run's budget had no room for it): each of its cells is not measured, with
     * the reason. Not a failure: the variant was never tried.
     */
    void notStarted(RunPlan.Trial trial, String reason) {
        notMeasuredAll(trial, context.results().startTrial(trial.variant().name()), reason);
    }

    void run(RunPlan.Trial trial) {
        int index = context.results().startTrial(trial.variant().name());
        String noRuntime = context.unavailable().get(trial.variant().name());
        if (noRuntime != null) {
            // Not started: no database, no launch command (it would need the runtime). Not measured, not failed:
            // the machine lacks the runtime, which says nothing of the variant.
            notMeasuredAll(trial, index, "runtime: " + noRuntime);
            return;
        }
        String url = context.options().services().get(trial.variant().name());
        if (url != null) {
            runAt(trial, index, url);
            return;
        }
        String name = trial.variant().name() + "-s" + (index + 1);
        String database = "restbench_cell";
        long t = System.nanoTime();
        String jdbcUrl;
        try {
            jdbcUrl = context.postgres().createDatabaseFromTemplate(context.template(), database);
        } catch (RuntimeException e) {
            failAll(trial, index, "fresh database from the template failed: " + e.getMessage());
            return;
        }
        add("databaseCloneS", t);
        Path artifact = context.artifacts().get(trial.variant().name());
        if (artifact == null) {
            failAll(trial, index, "artifact " + trial.variant().artifact() + " does not exist (build it first)");
            return;
        }
        try {
            List<String> aot = trial.variant().aotCache() ? aotCacheOptions(trial.variant(), artifact, jdbcUrl) : List.of();
            ServiceProcess.Launch launch = ServiceLaunch.of(context.manifest(), trial.variant(), artifact, jdbcUrl,
                    context.postgres().serviceUser(), context.postgres().servicePassword(), aot);
            t = System.nanoTime();
            try (ServiceProcess service = ServiceProcess.start(launch, context.runDir().resolve("logs").resolve(name + ".log"),
                    context.serviceUser())) {
                long readyMs = service.awaitHealthy(Duration.ofSeconds(context.manifest().defaults().healthTimeoutSeconds()));
                add("startupS", t);
                recordStartup(trial.variant().name(), trial.round(), service, readyMs);
                measureCells(trial, index, service, database);
                t = System.nanoTime();
            }
            add("stopS", t);
        } catch (ServiceProcess.StartFailure e) {
            failAll(trial, index, "start: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failAll(trial, index, "interrupted");
        } catch (IOException | RuntimeException e) {
            failAll(trial, index, "runner error: " + e);
        } finally {
            try {
                context.postgres().dropDatabase(database);
            } catch (RuntimeException e) {
                // the next trial's createDatabaseFromTemplate drops it anyway
            }
        }
    }

    /**
     * The JVM flags of a variant with {@code aotCache} ({@link AotCache}): trained once per run in a start of its
     * own, on this trial's database, before the first measured start. As a service user, the training writes it into
     * that user's directory and the starts read the runner's copy beside the run's copy of the artifact (which the
     * user can read, unlike the results).
     */
    private List<String> aotCacheOptions(Manifest.Variant variant, Path artifact, String jdbcUrl)
            throws IOException, InterruptedException {
        Optional<ServiceUser> user = context.serviceUser();
        Path cache = user.isEmpty() ? context.runDir().resolve("aot").resolve(variant.name() + ".aot")
                : artifact.getParent().resolve(variant.name() + ".aot");
        if (!Files.isRegularFile(cache)) {
            long t = System.nanoTime();
            Path written = user.isEmpty() ? cache : user.get().session().resolve("aot").resolve(variant.name() + ".aot");
            ServiceProcess.Launch training = ServiceLaunch.of(context.manifest(), variant, artifact, jdbcUrl,
                    context.postgres().serviceUser(), context.postgres().servicePassword(),
                    AotCache.trainingOptions(written));
            AotCache.train(training, written, cache,
                    context.runDir().resolve("logs").resolve(variant.name() + "-aot-training.log"),
                    Duration.ofSeconds(context.manifest().defaults().healthTimeoutSeconds()), user);
            add("aotTrainingS", t);
            context.events().accept(String.format(Locale.ROOT, "%s: AOT cache trained in %.0f s (%d MB)",
                    variant.name(), (System.nanoTime() - t) / 1e9, Files.size(cache) >> 20));
        }
        return AotCache.useOptions(cache);
    }

    /** A trial on a variant that already runs at {@code url}: reload its data, check its health, measure. */
    private void runAt(RunPlan.Trial trial, int index, String url) {
        long t = System.nanoTime();
        try {
            context.postgres().reloadDataset(BenchmarkRun.datasetSpec(context.selection()));
        } catch (RuntimeException e) {
            failAll(trial, index, e.getMessage());
            return;
        }
        add("datasetReloadS", t);
        Manifest.Variant variant = trial.variant();
        ServiceEndpoint service = new ServiceEndpoint(url, variant.healthPath(), variant.metricsPath());
        try {
            service.awaitHealthy(Duration.ofSeconds(context.manifest().defaults().healthTimeoutSeconds()));
            // Its rows live in the database the server's URL names (reloadDataset), and so do its statements.
            measureCells(trial, index, service, context.postgres().adminDatabase());
        } catch (ServiceProcess.StartFailure e) {
            failAll(trial, index, "health: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failAll(trial, index, "interrupted");
        } catch (IOException | RuntimeException e) {
            failAll(trial, index, "runner error: " + e);
        }
    }

    /**
     * Every cell in order; a cell that fails because the service died fails the rest of the trial too. The warmup's
     * cycles of load and idle run in the start's first cell only: they let the compilers drain the JVM's own warmup
     * (docs/method.md, warmup cycles); a later cell finds the stack compiled and warms until steady as before.
     *
     * <p>Every cell reads the dataset as loaded: the first finds its fresh copy, and before each later one the rows
     * are reloaded in place. Without it a cell measured what the earlier cells' writes left behind, and how much they
     * wrote depends on how fast the variant was and how long its warmups ran (docs/method.md, "data").
     */
    private void measureCells(RunPlan.Trial trial, int index, ServiceUnderTest service, String database)
            throws IOException, InterruptedException {
        Manifest.Profile profile = context.selection().profile();
        boolean firstCell = true;
        DatasetSpec dataset = BenchmarkRun.datasetSpec(context.selection());
        for (RunPlan.Cell cell : trial.cells()) {
            RunResults.CellKey key = new RunResults.CellKey(trial.variant().name(), cell.scenario().name(), cell.regime());
            if (ChildProcesses.shuttingDown()) {
                return;
            }
            if (!service.isAlive()) {
                record(key, trial, index, CellSession.Outcome.failed(service.deathReason("before this cell"), 0, null));
                continue;
            }
            if (!firstCell) {
                long reload = System.nanoTime();
                try {
                    context.postgres().reloadDataset(database, dataset);
                } catch (RuntimeException e) {
                    record(key, trial, index, CellSession.Outcome.failed("dataset reload before this cell: "
                            + e.getMessage(), 0, null));
                    continue;
                }
                add("datasetReloadS", reload);
            }
            String cellName = key.name() + "-s" + (index + 1);
            Path work = context.runDir().resolve("gatling").resolve(".work-" + cellName);
            Manifest.Warmup w = profile.warmup();
            CellSession.Plan plan = new CellSession.Plan(cell.scenario().simulation(), properties(trial, cell, service),
                    cell.regime(), new SteadyState.Rule(w.minSeconds(), w.maxSeconds(), w.stableSeconds(),
                    w.maxJitMsPerS(), w.maxDriftPct()), firstCell ? w.cycles() : null, profile.windows(),
                    profile.windowSeconds(),
                    context.manifest().errorBudget().maxErrorPct(), context.manifest().errorBudget().capacityP99Ms());
            firstCell = false;
            long t = System.nanoTime();
            CellSession.Outcome outcome = cells.run(plan, service, database, work,
                    context.runDir().resolve("logs").resolve(cellName + ".gatling.log"),
                    context.runDir().resolve("logs").resolve(cellName + ".warmup.tsv"),
                    context.options().flameGraphs(trial.round()) ? profiling(trial.variant(), service, cellName, profile)
                            : null);
            add("cellsS", t);
            if (outcome.ok()) {
                context.timings().merge("warmupS", outcome.warmupSeconds(), Double::sum);
                context.timings().merge("measuredWindowsS",
                        outcome.windows().stream().mapToDouble(CellSession.Window::seconds).sum(), Double::sum);
            }
            record(key, trial, index, keepReport(outcome, cellName, work));
        }
    }

    /** The profiling window of a cell (--flamegraphs); a service the runner cannot profile says why. */
    private CellSession.Profiling profiling(Manifest.Variant variant, ServiceUnderTest service, String cellName,
                                            Manifest.Profile profile) {
        FlameGraphs graphs = new FlameGraphs(context.runDir(), Math.max(FLAME_GRAPH_MIN_SECONDS, profile.windowSeconds()),
                context.serviceUser());
        String title = variant.name() + " · " + cellName;
        if (!(service instanceof ServiceProcess process)) {
            return new CellSession.Profiling(graphs, null, 0, cellName, title,
                    "the service runs at a URL: the runner did not start it and cannot attach to it");
        }
        java.nio.file.Path jcmd = ServiceLaunch.jcmd(variant);
        return new CellSession.Profiling(graphs, jcmd, process.pid(), cellName, title,
                jcmd == null ? "no JVM (" + variant.runtime() + "): JFR flame graphs are for JVM variants" : null);
    }

    /** Moves Gatling's HTML report of the cell to gatling/&lt;cell&gt;/ and drops the work directory. */
    private CellSession.Outcome keepReport(CellSession.Outcome outcome, String cellName, Path work) throws IOException {
        String report = null;
        if (outcome.report() != null) {
            Path source = Path.of(outcome.report()).getParent();
            Path target = context.runDir().resolve("gatling").resolve(cellName);
            if (Files.isDirectory(source)) {
                Trees.delete(target);
                Files.move(source, target);
                report = "gatling/" + cellName + "/index.html";
            }
        }
        Trees.delete(work);
        return outcome.withReport(report);
    }

    private void record(RunResults.CellKey key, RunPlan.Trial trial, int index, CellSession.Outcome outcome) {
        context.results().add(key, new RunResults.TrialResult(index, trial.round(), outcome));
        String name = key.name() + " s" + (index + 1);
        if (!outcome.ok()) {
            context.events().accept(name + " FAILED: " + outcome.reason());
            return;
        }
        double requests = 0;
        double seconds = 0;
        double cpu = 0;
        for (CellSession.Window window : outcome.windows()) {
            requests += window.metrics().getOrDefault("throughput", 0.0) * window.seconds();
            seconds += window.seconds();
            cpu += window.metrics().getOrDefault("cpu_us_per_req", Double.NaN);
        }
        String cpuText = Double.isNaN(cpu) ? "no CPU figure"
                : String.format(Locale.ROOT, "CPU %.0f µs/req", cpu / outcome.windows().size());
        context.events().accept(String.format(Locale.ROOT, "%s: warm %.0f s%s, %.0f req/s, %s, bound by %s",
                name, outcome.warmupSeconds(), outcome.steady() ? "" : " (UNSTEADY: " + outcome.unsteadyReason() + ")",
                requests / seconds, cpuText, outcome.bottleneck()));
    }

    private void failAll(RunPlan.Trial trial, int index, String reason) {
        recordAll(trial, index, CellSession.Outcome.failed(reason, 0, null), "FAILED: " + reason);
    }

    private void notMeasuredAll(RunPlan.Trial trial, int index, String reason) {
        recordAll(trial, index, CellSession.Outcome.notMeasured(reason), "not measured: " + reason);
    }

    /** The same outcome for every cell of a start that measured none of them, and one line that says why. */
    private void recordAll(RunPlan.Trial trial, int index, CellSession.Outcome outcome, String said) {
        for (RunPlan.Cell cell : trial.cells()) {
            RunResults.CellKey key = new RunResults.CellKey(trial.variant().name(), cell.scenario().name(), cell.regime());
            context.results().add(key, new RunResults.TrialResult(index, trial.round(), outcome));
        }
        context.events().accept(trial.variant().name() + " s" + (index + 1) + " " + said);
    }

    private void recordStartup(String variant, int round, ServiceProcess service, long readyMs) {
        Map<String, Double> startup = new LinkedHashMap<>();
        startup.put("time_to_ready_ms", (double) readyMs);
        ProcFs.rssKb(service.pid()).ifPresent(kb -> startup.put("rss_after_start_mb", kb / 1024.0));
        try {
            startup.putAll(WindowMetrics.startup(service.scrape()));
        } catch (Exception e) {
            context.events().accept(variant + ": first metrics scrape failed: " + e.getMessage());
        }
        context.results().addStartup(variant, round, startup);
    }

    private Map<String, String> properties(RunPlan.Trial trial, RunPlan.Cell cell, ServiceUnderTest service) {
        Map<String, String> props = new LinkedHashMap<>();
        props.put("baseUrl", service.baseUrl());
        props.put("dialect", trial.variant().dialect());
        // Gatling knows two load models; a sweep step (users-N) is the closed one, as capacity is.
        props.put("regime", Manifest.Regime.closedModel(cell.regime()) ? "capacity" : "latency");
        props.put("dataset.categories", Integer.toString(context.selection().dataset().categories()));
        props.put("dataset.items", Integer.toString(context.selection().dataset().items()));
        // Writers name their rows W<tag>…: unique per Gatling run, so no sku/code ever collides.
        props.put("runTag", runTagBase + Integer.toString(gatlingRuns++, 36));
        boolean sweepStep = Manifest.Regime.sweepUsers(cell.regime()).isPresent();
        // A sweep step's users are its definition (users-50 is 50 users), so loadScale leaves them alone.
        cell.scenario().regimes().get(cell.regime()).load().forEach((name, value) ->
                props.put(name, number(sweepStep ? value : scaled(name, value))));
        return props;
    }

    private double scaled(String loadName, double value) {
        double v = value * context.selection().profile().scale();
        return loadName.equals("users") ? Math.max(1, Math.round(v)) : Math.max(1, v);
    }

    private void add(String timing, long sinceNanos) {
        context.timings().merge(timing, Math.round((System.nanoTime() - sinceNanos) / 1e7) / 100.0, Double::sum);
    }

    private static String number(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
