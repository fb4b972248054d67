package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.dataset.StatementStatistics;
import dev.restbench.manifest.Manifest;
import dev.restbench.runner.isolation.ServiceUser;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Executes a {@link RunSelection}: PostgreSQL and the dataset template once, then the plan's rounds — each a
 * {@link TrialRunner} start of every variant in the round's order — then the result files. A {@link RoundListener}
 * may end the run after any round (the sequential A/B); the results then hold the rounds that ran.
 */
public final class BenchmarkRun {
    private static final DateTimeFormatter RUN_ID_TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    /** Asked after every round whether to run another (the plan's rounds are the maximum). */
    public interface RoundListener {
        /**
         * @param roundsDone   rounds finished so far
         * @param partialRun   what run.json would hold now (not written)
         * @param secondsSoFar wall time since the run started
         */
        boolean another(int roundsDone, ObjectNode partialRun, double secondsSoFar);

        RoundListener ALL = (rounds, run, seconds) -> true;
    }

    private final Manifest manifest;
    private final RunSelection selection;
    private final RunOptions options;
    private final Map<String, String> unavailable;
    private final PrintStream out;
    private final Map<String, Double> timings = new LinkedHashMap<>();
    private Path runDir;
    /** BENCH_SERVICE_USER: the services (and their AOT training, jcmd) run as this user. */
    private Optional<ServiceUser> serviceUser = Optional.empty();
    /** The host's self-check: a calibration probe on the service's core at the start and the end, its steal. */
    private final HostCheck hostCheck;
    private HostCheck.Report hostReport;

    /**
     * Runs a selection for another command (ab, drill) and returns the results directory it wrote (run.json in it
     * when the run finished; exit status 1 — failed cells — still writes it).
     *
     * @throws IllegalStateException when the run wrote no run.json (interrupted)
     */
    public static Path execute(RunOptions options, RoundListener listener, PrintStream out) throws Exception {
        Manifest manifest = dev.restbench.runner.manifest.Manifests.load(options.manifest());
        BenchmarkRun run = new BenchmarkRun(manifest, RunSelection.of(manifest, options), options, Map.of(), out);
        int exit = run.execute(listener);
        if (run.runDirectory() == null || !Files.isRegularFile(run.runDirectory().resolve("run.json"))) {
            throw new IllegalStateException("the run wrote no results (exit code " + exit + ")");
        }
        return run.runDirectory();
    }

    /**
     * @param unavailable variants whose runtime is not on this machine (run --missing-runtimes record) → why: never
     *                    built, copied or started; each of their trials records all its cells as not measured with "runtime: " + why
     */
    BenchmarkRun(Manifest manifest, RunSelection selection, RunOptions options, Map<String, String> unavailable,
                 PrintStream out) {
        this.manifest = manifest;
        this.selection = selection;
        this.options = options;
        this.unavailable = Map.copyOf(unavailable);
        this.out = out;
        this.hostCheck = new HostCheck(options.services().isEmpty() && manifest.pinning() != null
                ? manifest.pinning().service() : null, HostCheck.referenceFromEnvironment());
    }

    /**
     * When the run must be over (System.nanoTime), or null: a start that might not finish by then is not begun, and
     * is recorded as not measured, so that a CI job's timeout never cuts the run off before run.json is written.
     */
    private Long deadlineNanos;

    /** Seconds kept after the last start for the host check's closing probe and the results. */
    static final double CLOSING_S = 60;

    /** Sets the deadline (see {@link #canStart}). */
    BenchmarkRun deadline(long nanos) {
        this.deadlineNanos = nanos;
        return this;
    }

    /**
     * Whether a start can begin at {@code nowNanos} and end, at its longest, before {@code deadlineNanos} with
     * {@link #CLOSING_S} to spare.
     */
    static boolean canStart(RunSelection selection, RunPlan.Trial trial, long nowNanos, long deadlineNanos) {
        return nowNanos + (long) ((selection.worstSeconds(trial) + CLOSING_S) * 1e9) <= deadlineNanos;
    }

    /** The results directory of this run (set once {@link #execute} has started). */
    public Path runDirectory() {
        return runDir;
    }

    /** @return 0 when no cell failed and some cell was measured (a cell not measured fails nothing), 1 otherwise */
    int execute(RoundListener listener) throws Exception {
        ChildProcesses.installShutdownHook();
        Instant started = Instant.now();
        GitInfo commit = GitInfo.of(options.root());
        String runId = RUN_ID_TIME.format(started) + "-" + commit.shortId();
        runDir = options.resultsDir().resolve(runId);
        serviceUser = ServiceUser.configured();
        if (serviceUser.isPresent()) {
            serviceUser.get().stopAll(); // nothing of that user's runs beside this run's own starts
        }
        Files.createDirectories(runDir);
        if (serviceUser.isPresent()) {
            // Before anything is measured: the user must not be able to change what the run writes.
            serviceUser.get().requireUnwritable(runDir);
        }
        RunResults results = new RunResults(selection, options.failedStarts());
        out.println("run " + runId + " → " + runDir);
        serviceUser.ifPresent(user -> out.println("services run as " + user.describe()
                + ", which cannot write " + runDir));
        out.print(selection.describe());

        long t0 = System.nanoTime();
        Environment environment;
        int roundsRun = 0;
        Set<String> notStarted = new HashSet<>(options.services().keySet());
        notStarted.addAll(unavailable.keySet());
        try (Artifacts artifacts = Artifacts.snapshot(options.root(), selection.variants(), notStarted, out,
                serviceUser.isPresent());
             PostgresServer postgres = startPostgres();
             StatementStatistics statements = StatementStatistics.open(postgres)) {
            ChildProcesses.register(postgres);
            out.println(!statements.available()
                    ? "SQL statements per request: not measured: " + statements.unavailableReason()
                    : statements.tracksPlanning()
                    ? "SQL statements per request: counted by PostgreSQL (pg_stat_statements)"
                    : "SQL statements per request: counted by PostgreSQL (pg_stat_statements), plans not:"
                    + " pg_stat_statements.track_planning is off, so an A/B judges CPU as measured");
            try {
                String speedClass = hostCheck.begin();
                out.println("host check: " + hostCheck.startSummary());
                environment = Environment.capture(manifest, options.manifest(), selection, postgres.serverVersion(),
                        !postgres.isEmbedded(), options.services(), speedClass);
                String template = null;
                if (options.services().isEmpty()) {
                    Manifest.Dataset d = selection.dataset();
                    template = "restbench_tpl_" + selection.profile().dataset().replace('-', '_');
                    out.printf("dataset template %s (%d categories, %d items)…%n", template, d.categories(), d.items());
                    postgres.ensureTemplate(template, datasetSpec(selection));
                }
                add("postgresAndDatasetS", t0);
                Progress progress = new Progress(out, Progress.isTerminal(), selection.plan().trials().size(),
                        selection.plan().trials().stream().mapToDouble(this::plannedSeconds).sum());
                TrialRunner trials = new TrialRunner(new TrialRunner.Context(manifest, selection, options, postgres,
                        statements, template, runDir, artifacts.copies(), unavailable, results, timings, progress::event,
                        serviceUser),
                        HexFormat.of().formatHex(randomBytes()));
                for (int round = 0; round < selection.plan().rounds() && !ChildProcesses.shuttingDown(); round++) {
                    for (RunPlan.Trial trial : selection.plan().round(round)) {
                        if (ChildProcesses.shuttingDown()) {
                            break;
                        }
                        progress.step(trial.variant().name() + " (round " + (round + 1) + " of "
                                + selection.plan().rounds() + ")");
                        if (deadlineNanos != null && !unavailable.containsKey(trial.variant().name())
                                && !canStart(selection, trial, System.nanoTime(), deadlineNanos)) {
                            trials.notStarted(trial, String.format(Locale.ROOT, "budget: not started, %.0f min before"
                                    + " the run's deadline, and a start can take %.0f min (--budget-minutes)",
                                    (deadlineNanos - System.nanoTime()) / 60e9, selection.worstSeconds(trial) / 60));
                            progress.stepDone(plannedSeconds(trial));
                            continue;
                        }
                        trials.run(trial);
                        progress.stepDone(plannedSeconds(trial));
                    }
                    roundsRun = round + 1;
                    if (roundsRun < selection.plan().rounds() && !listener.another(roundsRun,
                            ResultsWriter.runJson(manifest, info(runId, started, commit, environment, roundsRun), results),
                            (System.nanoTime() - t0) / 1e9)) {
                        out.println("stopping after round " + roundsRun + " (decided)");
                        break;
                    }
                }
                progress.finish();
                hostReport = hostCheck.end(results.othersOnServiceCores());
                if (hostReport.problem() != null) {
                    out.println("host check: " + hostReport.problem() + "; this run's verdicts are withheld");
                }
            } finally {
                ChildProcesses.unregister(postgres);
            }
        }
        timings.put("totalS", Math.round((System.nanoTime() - t0) / 1e7) / 100.0);

        ResultsWriter.RunInfo info = info(runId, started, commit, environment, roundsRun);
        SummaryTables tables = new SummaryTables(manifest, selection, results);
        new ResultsWriter(manifest, runDir).writeAll(info, results, tables.markdown());
        if (options.tables() != RunOptions.Tables.NONE) {
            out.println();
            out.print(options.tables() == RunOptions.Tables.FULL ? tables.plainText() : tables.answer());
        }
        out.println(timingLine());
        out.println("results: " + runDir);
        if (!tables.failures().isEmpty()) {
            out.println(tables.failures().size() + " cell(s) FAILED (see above); exit status 1");
            return 1;
        }
        if (results.cells().stream().noneMatch(RunResults.CellSummary::ok)) {
            out.println("no cell was measured (see above); exit status 1");
            return 1;
        }
        if (!tables.notMeasured().isEmpty()) {
            out.println(tables.notMeasured().size() + " cell(s) not measured (see above): nothing failed");
        }
        return 0;
    }

    private ResultsWriter.RunInfo info(String runId, Instant started, GitInfo commit, Environment environment,
                                       int roundsRun) {
        return new ResultsWriter.RunInfo(runId, selection.profileName(),
                started.truncatedTo(ChronoUnit.SECONDS).toString(),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(), commit, environment, timings,
                selection.plan(), roundsRun, hostReport);
    }

    static DatasetSpec datasetSpec(RunSelection selection) {
        Manifest.Dataset d = selection.dataset();
        return new DatasetSpec(d.categories(), d.items(), d.heavyShare(), d.seed());
    }

    private PostgresServer startPostgres() throws IOException, InterruptedException {
        if (options.databaseUrl().isPresent()) {
            out.println("PostgreSQL: external " + options.databaseUrl().get() + " (not pinned by the runner"
                    + (options.services().isEmpty() ? ")" : "; the dataset is reloaded into it before every start)"));
            if (serviceUser.isPresent()) {
                out.println("note: the services log in to the external PostgreSQL as " + options.databaseUser()
                        + ", the runner's own login; it must not be a superuser on this machine");
            }
            return PostgresServer.external(options.databaseUrl().get(), options.databaseUser(), options.databasePassword());
        }
        // A service of another OS user gets a login of its own, and no local process the superuser without its
        // password (which the embedded default would give any of them, and with it the server's OS user).
        PostgresServer server = serviceUser.isPresent() ? PostgresServer.embeddedWithPasswords(0, true)
                : PostgresServer.embedded(0, true);
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

    /** A guess for the ETA (RunSelection.expectedSeconds); a variant without its runtime fails at once. */
    private double plannedSeconds(RunPlan.Trial trial) {
        return unavailable.containsKey(trial.variant().name()) ? 0 : selection.expectedSeconds(trial);
    }

    private void add(String timing, long sinceNanos) {
        timings.merge(timing, Math.round((System.nanoTime() - sinceNanos) / 1e7) / 100.0, Double::sum);
    }

    private String timingLine() {
        StringBuilder line = new StringBuilder("wall time:");
        timings.forEach((k, v) -> line.append(String.format(Locale.ROOT, " %s=%.1f", k, v)));
        return line.toString();
    }

    private static byte[] randomBytes() {
        byte[] bytes = new byte[3];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
