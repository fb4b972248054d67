package dev.restbench.runner.run;

import dev.restbench.dataset.StatementStatistics;
import dev.restbench.gatling.results.SimulationLog;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;

/**
 * One cell (variant × scenario × regime) within one trial (a start of the service): ONE Gatling JVM loads the
 * service from the first warmup request to the end of the last window, so no cold load generator ever starts inside
 * a measurement (docs/method.md, "Method"). The warmup lasts until {@link SteadyState} says the service settled (or
 * its cap); then {@code windows} back-to-back windows of {@code windowSeconds} are delimited by the runner's readings,
 * and their requests are taken from Gatling's own simulation.log by time. Windows whose compilers got busy after a
 * settled warmup count as warmup: the warmup resumes and the windows are measured again, once at most
 * ({@link #afterWindows}).
 */
final class CellSession {

    /** How long to wait for Gatling to start injecting (its JVM start, on a shared core). */
    private static final long GATLING_START_TIMEOUT_S = 90;
    /** Upper bound handed to Gatling beyond warmup + windows: the runner normally stops it long before. */
    private static final int DURATION_MARGIN_S = 120;
    /**
     * Re-measures of a start whose compilers got busy in the windows after a settled warmup: one. It bounds the wall
     * time a late burst can cost (one more warmup, at most its cap, and one more set of windows), and a burst that
     * comes back after it stays visible as UNSTEADY rather than being measured away by trying until one set is quiet.
     */
    static final int MAX_REMEASURES = 1;

    /** What a cell measures and under which rules. */
    /** @param cycles the warmup's cycles of load and idle before the until-steady part; null: none */
    record Plan(String simulation, Map<String, String> properties, String regime, SteadyState.Rule warmup,
                dev.restbench.manifest.Manifest.Cycles cycles, int windows, int windowSeconds, double maxErrorPct,
                double capacityP99Ms) {

        /** Seconds the cycles take; 0 without them. */
        int cycleSeconds() {
            return cycles == null ? 0 : cycles.seconds();
        }
    }

    /**
     * One operation (a Gatling request name: GET one, list, POST, …) over all measured windows of a start: seed 004's
     * per-method table. Reported, not judged: the cell's metrics are the verdicts' input.
     */
    record Operation(long requests, double reqPerS, long p50Ms, long p99Ms, double errorPct) {
    }

    /** One measured window: when it started (epoch ms), how long it lasted, its figures. */
    record Window(long startedAtMillis, double seconds, Map<String, Double> metrics, WindowMetrics.Utilisation utilisation) {
    }

    /**
     * The cell's outcome in one trial. A failed one has a reason and no windows; an unsteady one was measured after
     * the warmup cap although the rule never held ({@code unsteadyReason} says which criterion failed last), or its
     * compilers were busy over the windows after a settled warmup, in the re-measure too. {@code warmupSeconds}
     * includes the cycles and, after a re-measure, the discarded windows and the resumed warmup. A start that was
     * never begun for a reason outside the variant ({@code notMeasured}: its runtime is not on this machine, or the
     * run's budget had no room left for it) is neither ok nor failed: nothing was tried, so nothing failed.
     */
    record Outcome(boolean ok, String reason, double warmupSeconds, boolean steady, String unsteadyReason,
                   List<Window> windows, WindowMetrics.Utilisation utilisation, Map<String, Operation> operations,
                   String report, FlameGraphs.Result flameGraphs, boolean notMeasured) {

        Outcome(boolean ok, String reason, double warmupSeconds, boolean steady, String unsteadyReason,
                List<Window> windows, WindowMetrics.Utilisation utilisation, Map<String, Operation> operations,
                String report, FlameGraphs.Result flameGraphs) {
            this(ok, reason, warmupSeconds, steady, unsteadyReason, windows, utilisation, operations, report,
                    flameGraphs, false);
        }

        static Outcome failed(String reason, double warmupSeconds, String report) {
            return new Outcome(false, reason, warmupSeconds, false, null, List.of(), null, Map.of(), report, null);
        }

        /** A start not begun for a reason outside the variant: no numbers, and no failure either. */
        static Outcome notMeasured(String reason) {
            return new Outcome(false, reason, 0, false, null, List.of(), null, Map.of(), null, null, true);
        }

        /** Begun and not measured: the start failed (a start that was never begun is {@link #notMeasured}). */
        boolean failed() {
            return !ok && !notMeasured;
        }

        Outcome withReport(String report) {
            return new Outcome(ok, reason, warmupSeconds, steady, unsteadyReason, windows, utilisation, operations,
                    report, flameGraphs, notMeasured);
        }

        String bottleneck() {
            return utilisation == null ? "unknown" : utilisation.bottleneck();
        }
    }

    private final Path root;
    private final String gatlingCpuSet;
    private final WindowMetrics.CpuSets cpuSets;
    private final Long postgresPid;
    private final StatementStatistics statements;

    /** @param statements PostgreSQL's statement counters, read at every scrape; null or unavailable: not counted */
    CellSession(Path root, String gatlingCpuSet, WindowMetrics.CpuSets cpuSets, Long postgresPid,
                StatementStatistics statements) {
        this.root = root;
        this.gatlingCpuSet = gatlingCpuSet;
        this.cpuSets = cpuSets;
        this.postgresPid = postgresPid;
        this.statements = statements;
    }

    /**
     * A profiling window after the published ones (--flamegraphs): {@code jcmd} of the service's JDK, or null when
     * the service is no JVM (then {@code absent} says why there are no graphs).
     */
    record Profiling(FlameGraphs graphs, Path jcmd, long pid, String cellName, String title, String absent) {
    }

    /**
     * @param database  the service's database, whose statements are counted
     * @param workDir   Gatling's results and stop file (removed by the caller)
     * @param gatlingLog Gatling's console
     * @param profiling null: no profiling window
     */
    Outcome run(Plan plan, ServiceUnderTest service, String database, Path workDir, Path gatlingLog, Path warmupLog,
                Profiling profiling) throws IOException, InterruptedException {
        Map<String, String> props = new java.util.LinkedHashMap<>(plan.properties());
        // Room for the re-measures too: Gatling is stopped explicitly after the final windows, so a longer duration
        // costs nothing, and one too short would end the load in the middle of a re-measured window.
        int measure = plan.warmup().maxSeconds() + plan.windows() * plan.windowSeconds();
        props.put("duration", Integer.toString(plan.cycleSeconds() + (1 + MAX_REMEASURES) * measure
                + (profiling == null ? 0 : profiling.graphs().seconds()) + DURATION_MARGIN_S));
        try (GatlingSession gatling = GatlingSession.start(root, gatlingCpuSet, plan.simulation(), props, workDir,
                gatlingLog, plan.cycles() != null)) {
            if (!gatling.awaitStarted(GATLING_START_TIMEOUT_S)) {
                GatlingSession.Outcome exit = gatling.awaitExit(10);
                return Outcome.failed("Gatling did not start (exit " + exit.exitCode() + "): " + exit.lastLines(), 0, null);
            }
            String steppedWhileStarting = gatling.clockSteppedWhileStarting();
            if (steppedWhileStarting != null) {
                return Outcome.failed(steppedWhileStarting, 0, null);
            }
            Reading.Sources sources = new Reading.Sources(service, postgresPid, gatling.pid(), statements, database,
                    gatling.clock());

            StringBuilder bins = new StringBuilder();
            long cyclesStart = System.nanoTime();
            String brokenInCycles = cycles(plan.cycles(), sources, service, gatling, bins);
            double cycleSeconds = (System.nanoTime() - cyclesStart) / 1e9;
            if (brokenInCycles != null) {
                return Outcome.failed(brokenInCycles, cycleSeconds, null);
            }
            bins.append("seconds\treq_per_s\tcpu_us_per_req\tjit_ms_per_s\tsteady\n");
            Warmup warmup = untilSteady(plan, sources, service, gatling, bins, 0, "during the warmup");
            double warmupSeconds = cycleSeconds + warmup.seconds();
            if (warmup.broken() != null) {
                return Outcome.failed(warmup.broken(), warmupSeconds, null);
            }
            java.nio.file.Files.createDirectories(warmupLog.getParent());
            java.nio.file.Files.writeString(warmupLog, bins);
            Measured measured = windows(plan, sources, service, gatling, "");
            if (measured.broken() != null) {
                return Outcome.failed(measured.broken(), warmupSeconds, null);
            }
            AfterWindows after = afterWindows(warmup.verdict(), compilerWindows(measured.edges(), service.procCpu()),
                    plan.warmup().maxJitMsPerS(), 0);
            for (int remeasures = 1; after.remeasure(); remeasures++) {
                // The compilers woke up inside the windows of a settled warmup: those windows were warmup after all.
                // They are discarded, the warmup resumes on the same rule (a fresh run of it: its stable span must
                // hold again, after the burst), and the windows are measured anew.
                bins.append(String.format(Locale.ROOT, "# re-measure %d: the %d windows from %d to %d (epoch ms)"
                        + " discarded as warmup, %s; the warmup resumes%n", remeasures, plan.windows(),
                        measured.edges().get(0).epochMillis(), measured.last().epochMillis(), after.reason()));
                double logged = warmup.seconds() + measured.seconds();
                warmupSeconds += measured.seconds();
                warmup = untilSteady(plan, sources, service, gatling, bins, logged, "during the resumed warmup");
                warmupSeconds += warmup.seconds();
                java.nio.file.Files.writeString(warmupLog, bins);
                if (warmup.broken() != null) {
                    return Outcome.failed(warmup.broken(), warmupSeconds, null);
                }
                measured = windows(plan, sources, service, gatling, " of re-measure " + remeasures);
                if (measured.broken() != null) {
                    return Outcome.failed(measured.broken(), warmupSeconds, null);
                }
                after = afterWindows(warmup.verdict(), compilerWindows(measured.edges(), service.procCpu()),
                        plan.warmup().maxJitMsPerS(), remeasures);
            }
            FlameGraphs.Result flameGraphs = profile(profiling, service, gatling);
            gatling.stop();
            GatlingSession.Outcome exit = gatling.awaitExit(60);
            Path reportDir = exit.reportDir();
            if (exit.exitCode() != 0) {
                return Outcome.failed("Gatling exited with code " + exit.exitCode() + ": " + exit.lastLines(),
                        warmupSeconds, null);
            }
            if (reportDir == null) {
                return Outcome.failed("Gatling wrote no results", warmupSeconds, null);
            }
            SimulationLog log;
            try {
                log = SimulationLog.read(reportDir);
            } catch (IOException e) {
                return Outcome.failed("cannot read Gatling's simulation.log: " + e.getMessage(), warmupSeconds, null);
            }
            long stepped = gatling.clock().wallStepMillis();
            if (Math.abs(stepped) > GatlingClock.TOLERANCE_MILLIS) {
                // Kept with the cell's warmup log: the windows were cut on Gatling's clock, which the step did not move.
                bins.append(String.format(Locale.ROOT, "# the host's wall clock was stepped %+d ms during this cell;"
                        + " the windows are cut on Gatling's clock, which it did not move%n", stepped));
                java.nio.file.Files.writeString(warmupLog, bins);
            }
            // The second line of defence: Gatling's own start time must fall in the span it started in.
            String clockMismatch = gatling.clockMismatch(log.runStartMillis());
            if (clockMismatch != null) {
                return Outcome.failed(clockMismatch, warmupSeconds, null);
            }
            return judge(plan, service, measured.edges(), measured.scrapes(), log, warmupSeconds, after.reason(),
                    reportDir, flameGraphs);
        }
    }

    /** A warmup's end: its verdict and seconds, or the reason the service or Gatling broke during it. */
    private record Warmup(SteadyState.Verdict verdict, double seconds, String broken) {
    }

    /**
     * The warmup until {@link SteadyState} says steady or its cap: one bin per second, each a line of {@code bins}
     * (its seconds counted from {@code loggedSeconds}, so a resumed warmup continues the log's clock).
     */
    private static Warmup untilSteady(Plan plan, Reading.Sources sources, ServiceUnderTest service,
                                      GatlingSession gatling, StringBuilder bins, double loggedSeconds, String when)
            throws InterruptedException {
        // Every windowSeconds the bin edge scrapes the metrics endpoint, as the windows' edges will: the warmup runs
        // what the windows run. Without it the first window's scrape ran cold code, and the JIT compiling it (and
        // what it made hot) landed in the measurement — 150-300 ms/s of compiler CPU in the first window of cells
        // whose warmup had settled (run 20261123T120659Z). At the windows' rate, not every bin: at a latency regime's
        // few requests per second a scrape per second would be most of the bins' CPU per request.
        SteadyState steady = new SteadyState(plan.warmup());
        Reading before = sources.readStart(false);
        GatlingSession.Count countBefore = gatling.count();
        long warmupStart = before.nanoTime();
        for (int bin = 1; !steady.done(); bin++) {
            sleepUntil(before.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            Reading now = sources.readEnd(bin % plan.windowSeconds() == 0);
            GatlingSession.Count count = gatling.count();
            String broken = broken(service, gatling, when);
            if (broken != null) {
                return new Warmup(steady.verdict(), (now.nanoTime() - warmupStart) / 1e9, broken);
            }
            OptionalLong cpu = before.serviceCpuUntil(now);
            OptionalLong jit = before.jitCpuUntil(now);
            long own = Math.max(0, cpu.orElse(0) - jit.orElse(0));
            SteadyState.Bin one = new SteadyState.Bin(before.secondsUntil(now),
                    count.requests() - countBefore.requests(), own, jit.isPresent() ? jit.getAsLong() : null);
            SteadyState.Verdict state = steady.add(one);
            bins.append(String.format(Locale.ROOT, "%.1f\t%.1f\t%.0f\t%s\t%s%n",
                    loggedSeconds + steady.elapsedSeconds(), one.requests() / one.seconds(),
                    one.requests() == 0 ? Double.NaN : own / (double) one.requests(),
                    jit.isPresent() ? String.format(Locale.ROOT, "%.0f", jit.getAsLong() / 1000.0 / one.seconds()) : "",
                    state.steady() ? "steady" : state.reason()));
            before = now;
            countBefore = count;
        }
        return new Warmup(steady.verdict(), steady.elapsedSeconds(), null);
    }

    /** A set of windows: its edges and each window's scrapes, or the reason the service or Gatling broke in it. */
    private record Measured(List<Reading> edges, List<List<PrometheusText>> scrapes, String broken) {

        Reading last() {
            return edges.get(edges.size() - 1);
        }

        double seconds() {
            return edges.get(0).secondsUntil(last());
        }
    }

    /** {@code plan.windows()} windows back to back; {@code which} follows "during window k" in a failure's reason. */
    private static Measured windows(Plan plan, Reading.Sources sources, ServiceUnderTest service,
                                    GatlingSession gatling, String which) throws InterruptedException {
        // One reading (with one metrics scrape) per edge and nothing in between. A scrape costs the service CPU and
        // allocation of its own (~100 KB on a JVM): one per window keeps that below 1-2 % of the requests' even at
        // the latency regime's low rates, where one per second did not.
        List<Reading> edges = new ArrayList<>();
        List<List<PrometheusText>> scrapes = new ArrayList<>();
        Reading edge = sources.readStart(true);
        edges.add(edge);
        for (int k = 0; k < plan.windows(); k++) {
            Reading from = edge;
            sleepUntil(from.nanoTime() + TimeUnit.SECONDS.toNanos(plan.windowSeconds()));
            edge = k == plan.windows() - 1 ? sources.readEnd(true) : sources.readStart(true);
            edges.add(edge);
            scrapes.add(java.util.stream.Stream.of(from.scrape(), edge.scrape())
                    .filter(java.util.Objects::nonNull).toList());
            String broken = broken(service, gatling, "during window " + (k + 1) + which);
            if (broken != null) {
                return new Measured(edges, scrapes, broken);
            }
        }
        return new Measured(edges, scrapes, null);
    }

    /**
     * The windows as the compilers' check sees them before Gatling's log is read (Gatling still loads the service,
     * for a re-measure): each one's seconds and JIT ms/s, as {@link WindowMetrics} reports them.
     */
    private static List<Window> compilerWindows(List<Reading> edges, boolean procCpu) {
        List<Window> windows = new ArrayList<>();
        for (int k = 0; k + 1 < edges.size(); k++) {
            Reading start = edges.get(k);
            Reading end = edges.get(k + 1);
            java.util.OptionalDouble jit = WindowMetrics.jitMsPerS(start, end, procCpu);
            windows.add(new Window(start.epochMillis(), start.secondsUntil(end),
                    jit.isPresent() ? Map.of("jit_cpu_ms_per_s", jit.getAsDouble()) : Map.of(), null));
        }
        return windows;
    }

    /**
     * The warmup's cycles of load and idle, before the until-steady part (none when {@code cycles} is null): each
     * loads for its seconds, then pauses the load generator for the idle seconds. Each idle interval is written to the
     * warmup log as a comment line with its epoch-ms edges and the compiler threads' CPU over it (whether the idle let
     * them catch up, or found them quiet: HotSpot drops a queued compilation once its method has not run for a moment
     * unless it is very hot). The reason the service or Gatling broke, else null.
     */
    private static String cycles(dev.restbench.manifest.Manifest.Cycles cycles, Reading.Sources sources,
                                 ServiceUnderTest service, GatlingSession gatling, StringBuilder log)
            throws IOException, InterruptedException {
        if (cycles == null) {
            return null;
        }
        for (int k = 1; k <= cycles.count(); k++) {
            String broken = waitWatching(cycles.loadSeconds(), service, gatling, "during warmup cycle " + k);
            if (broken != null) {
                return broken;
            }
            gatling.pause();
            long idleFrom = gatling.clock().nowMillis();
            Reading first;
            Reading last;
            try {
                first = sources.readStart(false);
                broken = waitWatching(cycles.idleSeconds(), service, gatling, "during warmup cycle " + k + "'s idle");
                last = sources.readEnd(false);
            } finally {
                gatling.resume();
            }
            log.append(String.format(Locale.ROOT, "# cycle %d: load %d s, then idle from %d to %d (epoch ms)%s%n", k,
                    cycles.loadSeconds(), idleFrom, gatling.clock().nowMillis(), compilersOver(first, last)));
            if (broken != null) {
                return broken;
            }
        }
        return null;
    }

    /** ", compilers N ms/s over the idle", or nothing for a runtime without compiler threads. */
    static String compilersOver(Reading first, Reading last) {
        java.util.OptionalLong jit = first.jitCpuUntil(last);
        return jit.isEmpty() ? "" : String.format(Locale.ROOT, ", compilers %.0f ms/s over the idle",
                jit.getAsLong() / 1000.0 / first.secondsUntil(last));
    }

    /** Waits whole seconds, checking each one that the service and Gatling still run. */
    private static String waitWatching(int seconds, ServiceUnderTest service, GatlingSession gatling, String when)
            throws InterruptedException {
        long from = System.nanoTime();
        for (int s = 1; s <= seconds; s++) {
            sleepUntil(from + TimeUnit.SECONDS.toNanos(s));
            String broken = broken(service, gatling, when);
            if (broken != null) {
                return broken;
            }
        }
        return null;
    }

    /** The profiling window: the load goes on, JFR records it, nothing of it is measured. */
    private static FlameGraphs.Result profile(Profiling profiling, ServiceUnderTest service, GatlingSession gatling)
            throws InterruptedException {
        if (profiling == null) {
            return null;
        }
        if (profiling.jcmd() == null) {
            return FlameGraphs.Result.absent(profiling.absent());
        }
        FlameGraphs.Recording recording;
        try {
            recording = profiling.graphs().start(profiling.jcmd(), profiling.pid());
        } catch (IOException e) {
            return FlameGraphs.Result.absent("JFR did not start: " + e.getMessage());
        }
        sleepUntil(recording.startedNanos() + TimeUnit.SECONDS.toNanos(profiling.graphs().seconds()));
        String broken = broken(service, gatling, "during the profiling window");
        FlameGraphs.Result result = profiling.graphs().finish(recording, profiling.cellName(), profiling.title());
        return broken == null ? result : FlameGraphs.Result.absent(broken);
    }

    /**
     * The windows' figures, then the cell's failure rules over all its windows; {@code unsteady}: why the start is
     * unsteady ({@link #afterWindows}), null when steady.
     */
    private Outcome judge(Plan plan, ServiceUnderTest service, List<Reading> edges, List<List<PrometheusText>> scrapes,
                          SimulationLog log, double warmupSeconds, String unsteady, Path reportDir,
                          FlameGraphs.Result flameGraphs) {
        List<Window> windows = new ArrayList<>();
        List<WindowMetrics.Utilisation> utilisation = new ArrayList<>();
        for (int k = 0; k < scrapes.size(); k++) {
            Reading start = edges.get(k);
            Reading end = edges.get(k + 1);
            SimulationLog.Slice requests = log.slice(start.epochMillis(), end.epochMillis());
            WindowMetrics.Result result = WindowMetrics.of(start, end, scrapes.get(k), requests, cpuSets,
                    service.procCpu(), service.harnessPaths());
            windows.add(new Window(start.epochMillis(), start.secondsUntil(end), result.metrics(), result.utilisation()));
            utilisation.add(result.utilisation());
        }
        String report = reportDir.resolve("index.html").toString();
        SimulationLog.Slice measured = log.slice(edges.get(0).epochMillis(), edges.get(edges.size() - 1).epochMillis());
        long[] edgeMillis = edges.stream().mapToLong(Reading::epochMillis).toArray();
        String failure = measured.total() == 0 ? "no requests were completed in the windows"
                : emptyWindow(log, edgeMillis);
        if (failure == null) {
            failure = overErrorBudget(measured, plan.maxErrorPct());
        }
        if (failure == null && dev.restbench.manifest.Manifest.Regime.closedModel(plan.regime())
                && measured.percentileMillis(99) > plan.capacityP99Ms()) {
            failure = String.format(Locale.ROOT, "p99 %d ms exceeds the capacity bound of %.0f ms",
                    measured.percentileMillis(99), plan.capacityP99Ms());
        }
        if (failure != null) {
            return Outcome.failed(failure, warmupSeconds, report);
        }
        String overloaded = overloaded(plan.regime(), log, edges.get(0).epochMillis(),
                edges.get(edges.size() - 1).epochMillis());
        if (overloaded != null) {
            unsteady = unsteady == null ? overloaded : unsteady + "; " + overloaded;
        }
        double seconds = windows.stream().mapToDouble(Window::seconds).sum();
        Map<String, Operation> operations = new java.util.LinkedHashMap<>();
        measured.byName().forEach((name, slice) -> operations.put(name, new Operation(slice.total(),
                slice.total() / seconds, slice.percentileMillis(50), slice.percentileMillis(99), slice.errorPct())));
        return new Outcome(true, null, warmupSeconds, unsteady == null, unsteady,
                windows, WindowMetrics.Utilisation.mean(utilisation), operations, report, flameGraphs);
    }

    /**
     * The first window in which the load generator recorded no completed request, as the start's failure, or null.
     * The windows together can hold requests while one holds none. A jersey drill start's Gatling ended 3 s into the
     * second of its three windows; that start passed as measured. Its last window had no CPU or allocation per request,
     * and the cell lost those metrics for all its starts.
     *
     * @param edgeMillis the windows' edges in epoch ms, n + 1 for n windows
     */
    static String emptyWindow(SimulationLog log, long[] edgeMillis) {
        int windows = edgeMillis.length - 1;
        for (int k = 0; k < windows; k++) {
            if (log.slice(edgeMillis[k], edgeMillis[k + 1]).total() == 0) {
                return String.format(Locale.ROOT, "the load generator recorded no completed request in window %d of"
                        + " %d (%.1f s): the load stopped or stalled inside the windows", k + 1, windows,
                        (edgeMillis[k + 1] - edgeMillis[k]) / 1000.0);
            }
        }
        return null;
    }

    /**
     * What a set of windows decides: {@code remeasure} them (then {@code reason} says why they are discarded), or the
     * start's unsteady reason ({@code reason}; null when steady).
     */
    record AfterWindows(boolean remeasure, String reason) {
    }

    /**
     * After a set of windows, given the warmup before them and how many re-measures came before: a warmup at its cap
     * makes the start unsteady as it is; compilers busy over the windows of a settled warmup ({@link #busyCompilers})
     * call for a re-measure while fewer than {@link #MAX_REMEASURES} were made, else make the start unsteady, and
     * the reason then says re-measures were made. A runtime without compiler readings is never re-measured.
     */
    static AfterWindows afterWindows(SteadyState.Verdict warmup, List<Window> windows, double maxJitMsPerS,
                                     int remeasures) {
        String unsteady = warmup.steady() ? busyCompilers(windows, maxJitMsPerS) : warmup.reason();
        if (unsteady == null) {
            return new AfterWindows(false, null);
        }
        if (warmup.steady() && remeasures < MAX_REMEASURES) {
            return new AfterWindows(true, unsteady);
        }
        return new AfterWindows(false, remeasures == 0 ? unsteady
                : unsteady + ", after " + (remeasures == 1 ? "one re-measure" : remeasures + " re-measures"));
    }

    /** Why the windows' requests failed the error budget, naming their commonest error; null when within it. */
    static String overErrorBudget(SimulationLog.Slice measured, double maxErrorPct) {
        if (measured.errorPct() <= maxErrorPct) {
            return null;
        }
        String commonest = measured.commonestError();
        return String.format(Locale.ROOT, "error rate %.2f%% exceeds the budget of %.2f%%%s", measured.errorPct(),
                maxErrorPct, commonest == null ? "" : "; commonest: " + commonest);
    }

    /** A backlog this many iterations or fewer is what was in flight at the windows' edges, whatever the rate. */
    static final long BACKLOG_FLOOR = 10;
    /** ... or this share of the iterations started in the windows: a queue that grows 2 % of the rate per second. */
    static final double BACKLOG_SHARE = 0.02;

    /**
     * An open model (the latency regime) is steady only when the service keeps up with the arrivals: then as many
     * iterations (Gatling's virtual users, one iteration each) end in the windows as start in them, give or take those
     * in flight at the two edges. When the rate is more than the service serves, the queue grows all through the
     * windows, and a percentile is that of a queue's length, not the stack's latency at the rate: the start is
     * unsteady, with the backlog in the reason. The warmup's rule cannot see it, since an overloaded service's
     * throughput and CPU per request are flat. Users, not requests: Gatling writes a user's start when it arrives but
     * a request only when it ends, and the run stops right after the last window, so the requests still queued then
     * are in no record. The controller user starts before the warmup and ends at the stop, outside the windows. Null
     * for a closed model and for an open one that kept up.
     */
    static String overloaded(String regime, SimulationLog log, long fromMillis, long toMillis) {
        if (dev.restbench.manifest.Manifest.Regime.closedModel(regime)) {
            return null;
        }
        return backlog(log.usersStartedBetween(fromMillis, toMillis), log.usersEndedBetween(fromMillis, toMillis));
    }

    /**
     * The rule of {@link #overloaded} on counts: iterations started and ended in the windows. Both ways: more ended
     * than arrived means a queue from before the windows (a stall in the warmup's first seconds) was still draining in
     * them, and the percentiles measure the drain, not the stack at the rate. In a real run at 0.82× of capacity
     * all three starts drained such a backlog (two with p50 falling 1,289 → 981 ms) and passed as steady
     * (docs/results/2026-12-08-overload-at-capacity.md; docs/results/2026-12-08-drain-rule-sim.py for its rates).
     */
    static String backlog(long started, long ended) {
        long backlog = started - ended;
        double bound = Math.max(BACKLOG_FLOOR, BACKLOG_SHARE * started);
        if (backlog > bound) {
            return String.format(Locale.ROOT, "overloaded: %d of the %d iterations that arrived in the windows had not"
                    + " ended by their end (%.1f %%); the offered rate is more than the service served", backlog,
                    started, 100.0 * backlog / started);
        }
        if (-backlog > bound) {
            return String.format(Locale.ROOT, "draining: %d more iterations ended in the windows than the %d that"
                    + " arrived in them (%.1f %%); a queue from before the windows was still draining, so the latencies"
                    + " measure it, not the service at the offered rate", -backlog, started,
                    100.0 * -backlog / started);
        }
        return null;
    }

    /**
     * A warmup that settled does not make the windows steady: the compilers can start again (new code made hot, a
     * deoptimisation). Judged as the warmup is, on the mean over a span — all the windows, as long as the warmup's
     * stable span or longer — so one burst that the warmup's rule lets pass cannot fail the windows alone. Null when
     * the compilers stayed within the bound, else the reason the start is unsteady after all, naming the worst window.
     */
    static String busyCompilers(List<Window> windows, double maxJitMsPerS) {
        double jitMs = 0;
        double seconds = 0;
        int worst = -1;
        for (int k = 0; k < windows.size(); k++) {
            Double jit = windows.get(k).metrics().get("jit_cpu_ms_per_s");
            if (jit == null) {
                return null; // a runtime without compiler threads, or unreadable: the warmup skipped it too
            }
            jitMs += jit * windows.get(k).seconds();
            seconds += windows.get(k).seconds();
            if (worst < 0 || jit > windows.get(worst).metrics().get("jit_cpu_ms_per_s")) {
                worst = k;
            }
        }
        if (seconds == 0 || jitMs / seconds <= maxJitMsPerS) {
            return null;
        }
        return String.format(Locale.ROOT, "JIT compilers %.0f ms/s > %.0f over the windows (%.0f in window %d of %d;"
                + " the warmup had settled)", jitMs / seconds, maxJitMsPerS,
                windows.get(worst).metrics().get("jit_cpu_ms_per_s"), worst + 1, windows.size());
    }

    private static String broken(ServiceUnderTest service, GatlingSession gatling, String when) {
        if (!service.isAlive()) {
            return service.deathReason(when);
        }
        if (!gatling.isAlive()) {
            return "Gatling exited " + when;
        }
        return null;
    }

    private static void sleepUntil(long nanoTime) throws InterruptedException {
        long wait = nanoTime - System.nanoTime();
        if (wait > 0) {
            TimeUnit.NANOSECONDS.sleep(wait);
        }
    }
}
