package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.manifest.Manifests;
import dev.restbench.runner.Converters;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.analysis.Verdict;
import dev.restbench.runner.io.TextTable;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.run.BenchmarkRun;
import dev.restbench.runner.run.HostCheck;
import dev.restbench.runner.run.RunOptions;
import dev.restbench.runner.run.RunSelection;
import dev.restbench.runner.stats.Descriptive;
import dev.restbench.runner.stats.Interval;
import dev.restbench.runner.stats.PairedRatio;
import dev.restbench.runner.stats.PowerSimulation;
import dev.restbench.runner.stats.VarianceComponents;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code ./bench drill}: measures the A/B verdict on this machine with known answers. ONE run holds copies of the
 * same build — {@code a}, and per kind a copy that is either untouched ({@code aa}: the A/A check) or carries an
 * injected regression ({@code FAULT_CPU_PERCENT}, {@code FAULT_ALLOC_PERCENT}) — one start of each per round in random
 * order. The rounds are then cut into consecutive, disjoint groups: each group is one independent A/B trial of
 * {@code a} against each kind, judged exactly as {@code ./bench ab} judges a PR (no resampling of the same starts).
 * The report gives, per kind, how often the trials raised a regression (with a 95 % interval), the variance components
 * of every primary metric, and the detection rate those components imply for a PR budget (simulated). Several runs
 * of the same drill (one method, one profile) can be re-analysed together with {@code --from} repeated: their trials
 * add up, so a drill too long for one sitting can be run in parts.
 */
@Command(name = "drill",
        header = "regression drill: false-alarm and detection rates of the A/B verdict here, variance components, power",
        description = "Runs one variant as several copies in one run — the baseline a, an untouched copy (aa) and"
                + " copies with injected regressions (cpu5, cpu10: FAULT_CPU_PERCENT; alloc10: FAULT_ALLOC_PERCENT) —"
                + " one start of each per round in random order, then cuts the rounds into --trials disjoint groups of"
                + " --rounds-per-trial and judges each group like a PR's A/B (docs/method.md). Prints, per kind, the"
                + " share of trials that raised a regression with its 95 %% interval; per primary metric the variance"
                + " components (between and within starts); and the detection rate of a 10 %% regression those"
                + " components give a PR of --pr-rounds rounds over --pr-series primary series (simulated). --from"
                + " re-analyses earlier runs; given several times, it pools their trials.")
public final class DrillCommand implements Callable<Integer> {

    /** The kinds a drill can inject, by label: the environment of that copy. */
    static final Map<String, Map<String, String>> KINDS = new LinkedHashMap<>();

    static {
        KINDS.put("aa", Map.of());
        KINDS.put("cpu5", Map.of("FAULT_CPU_PERCENT", "5"));
        KINDS.put("cpu10", Map.of("FAULT_CPU_PERCENT", "10"));
        KINDS.put("alloc5", Map.of("FAULT_ALLOC_PERCENT", "5"));
        KINDS.put("alloc10", Map.of("FAULT_ALLOC_PERCENT", "10"));
    }

    /** A copy's environment with the start-failure fault every copy shares (none at 0 %). */
    private Map<String, String> withStartFailures(Map<String, String> env) {
        if (startFailurePercent <= 0) {
            return env;
        }
        Map<String, String> out = new LinkedHashMap<>(env);
        out.put("FAULT_START_FAIL_PERCENT", String.format(Locale.ROOT, "%s", startFailurePercent));
        return out;
    }

    /** The metric a kind is meant to move (null: none, the A/A check). */
    static String target(String kind) {
        return kind.startsWith("cpu") ? "cpu_us_per_req" : kind.startsWith("alloc") ? "alloc_bytes_per_req" : null;
    }

    @Option(names = "--variant", paramLabel = "<name>", description = "variant to drill (default jersey)")
    private String variant = "jersey";

    @Option(names = "--artifact", paramLabel = "<path>",
            description = "run this artifact instead of the manifest's (e.g. a copy, so a rebuild during the drill"
                    + " cannot change what is measured)")
    private Path artifact;

    /** The kinds a drill runs unless told: the A/A check and three regressions. */
    static final String DEFAULT_KINDS = "aa,cpu5,cpu10,alloc10";

    @Option(names = "--kinds", paramLabel = "a,b", description = "kinds to run: aa, cpu5, cpu10, alloc5, alloc10 (default "
            + DEFAULT_KINDS + "); with --from, the kinds to report, each of which every run must hold (default: the"
            + " runs' own)")
    private String kindNames;

    @Option(names = "--profile", paramLabel = "<name>",
            description = "manifest profile for warmup, windows, dataset and load (default quick)")
    private String profile = "quick";

    @Option(names = "--scenarios", paramLabel = "a,b", description = "scenarios (default join-filter)")
    private String scenarios = "join-filter";

    @Option(names = "--regimes", paramLabel = "a,b", description = "regimes (default capacity)")
    private String regimes = "capacity";

    @Option(names = "--trials", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "independent trials (default 10)")
    private int trials = 10;

    @Option(names = "--rounds-per-trial", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "rounds in each trial (default 4)")
    private int perTrial = 4;

    @Option(names = "--pr-rounds", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "rounds a PR's A/B gets in its budget, for the simulated power (default 2)")
    private int prRounds = 2;

    @Option(names = "--pr-series", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "primary series a PR judges at once, the Holm tests of its headline (default: the manifest's"
                    + " default profile: its variants × scenarios × the primary metrics of each regime, 36 for quick)")
    private Integer prSeries;

    @Option(names = "--seed", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "seed of the order within rounds (default random, recorded)")
    private Integer seed;

    @Option(names = "--start-failure-percent", paramLabel = "<pct>",
            description = "every copy, a included, fails this share of its starts on purpose (FAULT_START_FAIL_PERCENT:"
                    + " the service exits before it is ready), so the rates show what failed starts do to a verdict"
                    + " (default 0)")
    private double startFailurePercent;

    @Option(names = "--from", paramLabel = "<results dir>",
            description = "re-analyse earlier drill runs instead of running one; repeat it to pool the trials of"
                    + " several runs of the same drill (same machine, method and profile)")
    private List<Path> from = List.of();

    @Option(names = "--workdir", paramLabel = "<dir>", description = "derived manifest and results (default target/drill)")
    private Path workdirOption;

    @Option(names = "--output", paramLabel = "<file>", description = "also write the report to this file")
    private Path output;

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        Path root = rootOption.path();
        List<String> kinds = list(kindNames == null ? DEFAULT_KINDS : kindNames);
        for (String kind : kinds) {
            if (!KINDS.containsKey(kind)) {
                throw new UsageException("unknown kind '" + kind + "' (known: " + String.join(", ", KINDS.keySet()) + ")");
            }
        }
        List<Path> runDirs = new ArrayList<>(from);
        if (runDirs.isEmpty()) {
            if (trials * perTrial > 50) {
                throw new UsageException("--trials × --rounds-per-trial must be at most 50 rounds");
            }
            if (!(startFailurePercent >= 0 && startFailurePercent < 100)) {
                throw new UsageException("--start-failure-percent must be at least 0 and below 100");
            }
            // A malformed stated host speed stops the drill before its build, not after.
            HostCheck.referenceFromEnvironment();
            Path workdir = (workdirOption != null ? workdirOption : root.resolve("target/drill")).toAbsolutePath();
            if (artifact == null) {
                // The manifest's artifact, built when stale as ./bench build would (the run itself builds nothing).
                Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
                Manifest.Variant drilled = manifest.variant(variant).orElseThrow(() ->
                        new UsageException("unknown variant '" + variant + "'"));
                new VariantBuilder(root, manifest, Runtimes.ofThisMachine(), System.out).build(List.of(drilled), false, false);
            }
            List<Copies.Copy> copies = new ArrayList<>();
            copies.add(new Copies.Copy(variant, "a", artifact, withStartFailures(Map.of())));
            for (String kind : kinds) {
                copies.add(new Copies.Copy(variant, kind, artifact, withStartFailures(KINDS.get(kind))));
            }
            // The error budget and the latency bound are the manifest's, as in ./bench ab: a start that fails them
            // is recorded per start and judged round by round, so the drill sees what a failed start does to a
            // verdict (review D5; it used to lift the bound to 600 s so that no cell was dropped).
            Path derived = Copies.deriveManifest(root.resolve("benchmarks.json"), copies, profile, trials * perTrial,
                    list(scenarios), list(regimes), null, workdir.resolve("drill-benchmarks.json"));
            runDirs.add(BenchmarkRun.execute(RunOptions.of(root, derived, profile, workdir.resolve("results"),
                    List.of(), List.of(), seed == null ? null : (long) seed)
                    .with(RunOptions.FailedStarts.RECORDED_PER_START), BenchmarkRun.RoundListener.ALL, System.out));
        }
        List<RunRecord> runs = new ArrayList<>();
        try {
            for (Path runDir : runDirs) {
                runs.add(RunRecord.read(runDir));
            }
            kinds = kindsOf(runs, kindNames == null ? null : kinds);
            checkPoolable(runs, perTrial, kinds);
        } catch (IllegalArgumentException e) {
            System.err.println("bench drill: " + e.getMessage());
            return 2;
        }
        Manifest checkout = Manifests.load(root.resolve("benchmarks.json"));
        int series = prSeries != null ? prSeries : prSeries(root, checkout);
        MetricRules rules = MetricRules.of(checkout);
        String report = report(runs, kinds, perTrial, rules, prRounds, series);
        System.out.print(report);
        if (output != null) {
            AtomicFiles.writeString(output, report);
        }
        return 0;
    }

    /**
     * The kinds to report for these runs: the copies beside {@code a} that the runs hold cells of, in {@link #KINDS}' order,
     * or the requested ones when given. A requested kind some run lacks, or runs that hold different kinds, is an
     * error: a kind that was never run would otherwise be reported as trials that raised nothing.
     *
     * @param requested the kinds asked for, or null for the runs' own
     */
    static List<String> kindsOf(List<RunRecord> runs, List<String> requested) {
        List<String> first = null;
        for (RunRecord run : runs) {
            Set<String> labels = InterleavedRun.labels(run);
            labels.remove("a");
            List<String> held = KINDS.keySet().stream().filter(labels::contains).toList();
            if (requested != null) {
                for (String kind : requested) {
                    if (!labels.contains(kind)) {
                        throw new IllegalArgumentException("run " + run.runId() + " has no copy '" + kind
                                + "' (its copies beside a: " + String.join(", ", held) + ")");
                    }
                }
            } else if (first != null && !first.equals(held)) {
                throw new IllegalArgumentException("run " + run.runId() + " holds the kinds " + String.join(", ", held)
                        + ", run " + runs.get(0).runId() + " " + String.join(", ", first)
                        + ": name the ones to pool with --kinds");
            }
            if (first == null) {
                first = held;
            }
        }
        return requested != null ? requested : first;
    }

    /**
     * How many primary series a PR's A/B judges at once under the default profile (the workflow's): one per variant,
     * scenario, regime and metric that is primary in that regime. Derived, so that a profile with another shape
     * changes the simulated power with it.
     */
    static int prSeries(Path root, Manifest manifest) {
        RunSelection selection = RunSelection.of(manifest, RunOptions.of(root, root.resolve("benchmarks.json"),
                manifest.defaultProfile(), root.resolve("results"), List.of(), List.of(), 1L));
        int perCell = 0;
        for (String regime : selection.regimes()) {
            perCell += (int) manifest.metrics().stream().filter(m -> m.primaryIn(regime)).count();
        }
        return Math.max(1, selection.variants().size() * selection.scenarios().size() * perCell);
    }

    /**
     * Runs whose trials may be counted together: one machine and one method, each cut into whole trials. The
     * environment's fingerprint cannot decide it, because its method hash counts the starts per variant, which is
     * exactly what differs between two parts of one drill; so every other part is compared — the environment without
     * its hashes, the method without {@code startsPerVariant}, the definitions of the metrics both define, the profile
     * and the cells.
     * The scenarios' loads are not in a run's record: the run ids name the commits they were measured at.
     */
    static void checkPoolable(List<RunRecord> runs, int perTrial) {
        checkPoolable(runs, perTrial, null);
    }

    /**
     * As {@link #checkPoolable(List, int)}, comparing only the cells of copy a and of the kinds pooled: a sitting of
     * aa alone pools with one that also ran cpu10, for aa.
     *
     * @param kinds the kinds pooled, or null to compare every cell
     */
    static void checkPoolable(List<RunRecord> runs, int perTrial, List<String> kinds) {
        RunRecord first = runs.get(0);
        Set<String> seen = new HashSet<>();
        for (RunRecord run : runs) {
            if (!seen.add(run.runId())) {
                throw new IllegalArgumentException("run " + run.runId() + " is given twice: its trials would count"
                        + " twice");
            }
            String differs = differsFrom(first, run, kinds);
            if (differs != null) {
                throw new IllegalArgumentException("run " + run.runId() + " is not comparable with " + first.runId()
                        + " (" + differs + " differs): its trials cannot be pooled");
            }
            int rounds = plannedRounds(run);
            if (rounds < perTrial || rounds % perTrial != 0) {
                throw new IllegalArgumentException("run " + run.runId() + " has " + rounds + " rounds, not a whole"
                        + " number of trials of " + perTrial);
            }
        }
    }

    /** The first part of the record that makes run's starts samples of another design than first's, or null. */
    private static String differsFrom(RunRecord first, RunRecord run, List<String> kinds) {
        var environment = (ObjectNode) first.environment().deepCopy();
        var otherEnvironment = (ObjectNode) run.environment().deepCopy();
        for (var node : List.of(environment, otherEnvironment)) {
            node.remove(RunRecord.FINGERPRINT);
            node.remove(RunRecord.ENVIRONMENT_HASHES);
        }
        if (!environment.equals(otherEnvironment)) {
            return "the environment";
        }
        var method = first.method().deepCopy();
        var otherMethod = run.method().deepCopy();
        for (var node : List.of(method, otherMethod)) {
            if (node instanceof ObjectNode object) {
                object.remove(RunRecord.METHOD_STARTS_PER_VARIANT);
            }
        }
        if (!method.equals(otherMethod)) {
            return "the method";
        }
        String metric = differentDefinition(first, run);
        if (metric != null) {
            return "metric " + metric + "'s definition";
        }
        if (!first.profile().equals(run.profile())) {
            return "the profile";
        }
        if (!cells(first, kinds).equals(cells(run, kinds))) {
            return "the set of cells";
        }
        return null;
    }

    /** What a metric's definition says about what was measured; its words and its judging rules say nothing. */
    private static final List<String> MEASURED = List.of(RunRecord.DEFINITION_VERSION, RunRecord.DEFINITION_UNIT,
            RunRecord.DEFINITION_DIRECTION, RunRecord.DEFINITION_SCOPE);

    /**
     * The first metric both runs define as another measurement (version, unit, direction, scope); null when none. A
     * reworded description or a new minimum effect measures the same; a metric one of them lacks (the catalogue grew
     * between two parts) changes nothing the other measured: their starts pool for the metrics they share.
     */
    private static String differentDefinition(RunRecord first, RunRecord run) {
        java.util.Map<String, com.fasterxml.jackson.databind.JsonNode> theirs = new java.util.HashMap<>();
        run.metricDefinitions().forEach(definition -> theirs.put(definition.path(RunRecord.DEFINITION_ID).asText(),
                definition));
        for (var definition : first.metricDefinitions()) {
            var other = theirs.get(definition.path(RunRecord.DEFINITION_ID).asText());
            // A record written before versions were (2026-11-27) differs from one with them: pooled, they might mix two
            // versions of a metric, so the drill refuses rather than guesses.
            if (other != null && MEASURED.stream().anyMatch(field -> !other.path(field).equals(definition.path(field)))) {
                return definition.path(RunRecord.DEFINITION_ID).asText();
            }
        }
        return null;
    }

    /** The run's cell keys, only those of copy a and the kinds when kinds are given. */
    private static Set<String> cells(RunRecord run, List<String> kinds) {
        Set<String> cells = new TreeSet<>();
        run.cells().stream().filter(cell -> {
            String label = InterleavedRun.label(cell.variant());
            return kinds == null || "a".equals(label) || label != null && kinds.contains(label);
        }).forEach(cell -> cells.add(cell.key()));
        return cells;
    }

    /** The rounds the run's plan holds. */
    private static int plannedRounds(RunRecord run) {
        return run.plannedRounds();
    }

    /** The whole report for one drill run. */
    static String report(RunRecord run, List<String> kinds, int perTrial, MetricRules rules, int prRounds,
                         int prSeries) {
        return report(List.of(run), kinds, perTrial, rules, prRounds, prSeries);
    }

    /**
     * The whole report over one or more runs of the same drill: rates per kind over all their trials, variance
     * components over all their starts, simulated power. Trials never span two runs.
     */
    static String report(List<RunRecord> runs, List<String> kinds, int perTrial, MetricRules rules, int prRounds,
                         int prSeries) {
        int rounds = 0;
        int trials = 0;
        List<String> sources = new ArrayList<>();
        List<RunRecord> baselines = new ArrayList<>();
        for (RunRecord run : runs) {
            int runRounds = plannedRounds(run);
            rounds += runRounds;
            trials += runRounds / perTrial;
            sources.add("`" + run.runId() + "`" + (runs.size() > 1 ? " (" + runRounds + " rounds)" : ""));
            baselines.add(InterleavedRun.select(run, "a", null));
        }
        StringBuilder out = new StringBuilder();
        out.append("### Regression drill: run").append(runs.size() > 1 ? "s " : " ").append(String.join(", ", sources))
                .append(" (profile ").append(runs.get(0).profile()).append(")\n\n");
        out.append(String.format(Locale.ROOT, "%d rounds of %d copies (a, %s), cut into %d independent trials of %d"
                        + " rounds; each trial judged like a PR's A/B at α = 0.05 with Holm over its primary series and"
                        + " a minimum effect of %s.%n%n", rounds, kinds.size() + 1, String.join(", ", kinds), trials,
                perTrial, rules.describe()));
        out.append(faults(runs));
        TextTable rates = TextTable.of(List.of("kind", "trials judged", "regression raised (any primary)",
                "target metric regressed", "target change, median (range)", "trials with a failed start: red"), 1);
        List<String> unmeasured = new ArrayList<>();
        List<String> raisedBy = new ArrayList<>();
        Map<String, List<String>> withheld = new LinkedHashMap<>();
        // How each trial's adjusted series were judged (HostGauge): relative to the host's speed, or as measured and why.
        Map<String, Map<String, Integer>> howAdjusted = new LinkedHashMap<>();
        for (String kind : kinds) {
            int judged = 0;
            int raised = 0;
            int targetHit = 0;
            // The failure fault's trials: those in which a start of either side failed, and how many of them went red
            // (the false alarms a failed start causes, which a trial without one cannot show).
            int withFailure = 0;
            int raisedWithFailure = 0;
            List<Double> targetChanges = new ArrayList<>();
            String target = target(kind);
            for (int r = 0; r < runs.size(); r++) {
                RunRecord run = runs.get(r);
                RunRecord a = baselines.get(r);
                RunRecord copy = InterleavedRun.select(run, kind, null);
                int runTrials = plannedRounds(run) / perTrial;
                for (int t = 0; t < runTrials; t++) {
                    int from = t * perTrial;
                    int to = from + perTrial;
                    Judgement judgement = PairedJudge.judge(rounds(a, from, to, "a"), rounds(copy, from, to, kind),
                            AbCommand.ALPHA, rules, perTrial + " rounds");
                    String trial = kind + " trial " + (t + 1) + (runs.size() > 1 ? " of run " + (r + 1) : "");
                    if (judgement.withheldReason() != null) {
                        // Its own starts were disturbed (rounds() keeps the host check of the trial's starts): left
                        // out of the rates, which would otherwise read a withheld verdict as one that saw nothing.
                        withheld.computeIfAbsent(judgement.withheldReason(), k -> new ArrayList<>()).add(trial);
                        continue;
                    }
                    judged++;
                    boolean failure = failedStart(a, from, to) || failedStart(copy, from, to);
                    withFailure += failure ? 1 : 0;
                    if (judgement.hasRegression()) {
                        raised++;
                        raisedWithFailure += failure ? 1 : 0;
                        raisedBy.add(trial + " red by " + whatRaised(judgement));
                    }
                    unjudged(judgement, trial, unmeasured);
                    for (SeriesVerdict row : judgement.rows()) {
                        if (row.primary() && rules.rule(row.metric()).adjustedBy() != null) {
                            howAdjusted.computeIfAbsent(row.metric() + " " + adjustedHow(row.reason()),
                                    k -> new LinkedHashMap<>()).merge(kind, 1, Integer::sum);
                        }
                        if (target != null && row.metric().equals(target) && row.primary()) {
                            if (row.verdict() == Verdict.REGRESSION) {
                                targetHit++;
                            }
                            if (row.changePct() != null) {
                                targetChanges.add(row.changePct());
                            }
                        }
                    }
                }
            }
            rates.row(kind, judged == trials ? Integer.toString(trials) : judged + " of " + trials, rate(raised, judged),
                    target == null ? "—" : rate(targetHit, judged), targetChanges.isEmpty() ? "—" : changes(targetChanges),
                    withFailure == 0 ? "—" : rate(raisedWithFailure, withFailure));
        }
        List<RunRecord> sameJar = new ArrayList<>(baselines);
        if (kinds.contains("aa")) {
            runs.forEach(run -> sameJar.add(InterleavedRun.select(run, "aa", null)));
        }
        // As a PR's A/B would be (PairedJudge): trouble within a trial's own starts withholds what the host can move
        // in that trial; the others are judged. A drift over the run is carried by each round's pairing.
        if (!withheld.isEmpty()) {
            out.append("**Trials withheld by the host check** (left out of the rates; they judged only the counts of"
                    + " work marked host-independent: " + String.join(", ", rules.hostIndependent()) + "):\n\n");
            withheld.forEach((reason, list) -> out.append("- ").append(String.join(", ", list)).append(": ")
                    .append(reason).append('\n'));
            out.append('\n');
        }
        for (RunRecord run : runs) {
            if (run.hostDrift() != null) {
                out.append("**Host drift, run `").append(run.runId()).append("`:** ").append(run.hostDrift())
                        .append("; each round's pairing carries it, so it withholds nothing.\n\n");
            }
        }
        out.append(rates.markdown()).append('\n');
        if (!howAdjusted.isEmpty()) {
            out.append("**How the series adjusted by a gauge of the host were judged** (trials × cells, by kind):\n\n");
            howAdjusted.forEach((how, byKind) -> {
                List<String> counts = new ArrayList<>();
                byKind.forEach((kind, n) -> counts.add(kind + " " + n));
                out.append("- ").append(how).append(": ").append(String.join(", ", counts)).append('\n');
            });
            out.append('\n');
        }
        if (!raisedBy.isEmpty()) {
            // Which series made a trial red: an aa trial's red from a failed start is the failure rule's false alarm,
            // one from a timing the paired test's; a rate alone cannot tell them apart.
            out.append("**What raised each red trial:**\n\n");
            raisedBy.forEach(line -> out.append("- ").append(line).append('\n'));
            out.append('\n');
        }
        if (!unmeasured.isEmpty()) {
            out.append("**Primary series a trial could not judge** (the run's cell left them out for all its trials,"
                    + " because one of its windows lacked them, so these trials' rates rest on the other series):\n\n");
            unmeasured.forEach(line -> out.append("- ").append(line).append('\n'));
            out.append('\n');
        }
        out.append(components(sameJar, kinds.contains("aa"), perTrial, rules, prRounds, prSeries, startAndWindowCost(runs)))
                .append(startCost(runs))
                .append(residualDrift(sameJar, rules));
        if (kinds.contains("aa")) {
            out.append(pairedSpread(runs, rules, perTrial, prSeries));
        }
        return out.toString();
    }

    /** Whether a start of the record's cells in rounds [from, to) failed (one never begun is not a failure). */
    static boolean failedStart(RunRecord run, int from, int to) {
        return run.starts().values().stream().flatMap(List::stream)
                .anyMatch(start -> start.failure() != null && start.round() >= from && start.round() < to);
    }

    /**
     * The fault switches each run's copies ran with, as recorded (run.json's variants[].faults), so a pooled report
     * shows the fault rates it pools; a record written before they were recorded says so.
     */
    static String faults(List<RunRecord> runs) {
        StringBuilder out = new StringBuilder("**Faults recorded** (each copy's FAULT_* switches):\n\n");
        for (RunRecord run : runs) {
            List<String> copies = new ArrayList<>();
            boolean any = false;
            for (RunRecord.Variant variant : run.variants()) {
                Map<String, String> faults = variant.faults();
                any |= !faults.isEmpty();
                List<String> pairs = new ArrayList<>();
                faults.forEach((key, value) -> pairs.add(key + "=" + value));
                String label = InterleavedRun.label(variant.name());
                copies.add((label == null ? variant.name() : label) + ": "
                        + (pairs.isEmpty() ? "none" : String.join(", ", pairs)));
            }
            out.append("- `").append(run.runId()).append("`: ").append(any ? String.join("; ", copies)
                    : "none on (or a record from before 2026-12-08, which does not say)").append('\n');
        }
        return out.append('\n').toString();
    }
    /** "relative to the host's speed", or "as measured: <why>" (the text PairedJudge and HostGauge give the row). */
    static String adjustedHow(String reason) {
        if (reason != null && reason.startsWith("judged relative to the host's speed")) {
            return "relative to the host's speed";
        }
        String prefix = "judged as measured, not relative to ";
        if (reason != null && reason.startsWith(prefix)) {
            String why = reason.substring(reason.indexOf(": ", prefix.length()) + 2);
            int end = why.indexOf(';');
            // The moves' figures differ per trial: the reason's kind is what groups them.
            return "as measured: " + (end < 0 ? why : why.substring(0, end)).replaceAll("[+-]?\\d+\\.\\d+ %", "x %");
        }
        return "as measured (the cell did not qualify, or the record has no gauge)";
    }

    /**
     * What a start cost under the profile's start protocol, to set beside its noise (the components): wall time per
     * start (each run's total without PostgreSQL and the dataset, over its starts that measured something), and each
     * measured cell's warmup per start with how many were unsteady. Two protocols are compared by drilling each (issue 21: cheaper and
     * steadier starts). Empty for records without timings.
     */
    static String startCost(List<RunRecord> runs) {
        double wall = 0;
        int starts = 0;
        int failed = 0;
        List<Double> warmups = new ArrayList<>();
        int unsteady = 0;
        for (RunRecord run : runs) {
            int runStarts = run.measuredStarts().starts();
            Double total = run.timing(RunRecord.TIMING_TOTAL_S);
            if (runStarts == 0 || total == null) {
                continue;
            }
            wall += wallOfStarts(run, total);
            starts += runStarts;
            failed += run.startsRun() - runStarts;
            for (RunRecord.Cell cell : run.cells()) {
                for (RunRecord.Trial trial : cell.trials()) {
                    if (trial.measured() && trial.warmupSeconds() != null) {
                        warmups.add(trial.warmupSeconds());
                        if (!trial.steady()) {
                            unsteady++;
                        }
                    }
                }
            }
        }
        if (starts == 0 || warmups.isEmpty()) {
            return "";
        }
        double[] w = warmups.stream().mapToDouble(Double::doubleValue).toArray();
        return String.format(Locale.ROOT, "**Start cost** under profile %s: %.0f s of wall time per start over %d"
                        + " starts%s; a cell's warmup %.0f s median (%.0f–%.0f) over %d cell starts, %d of them"
                        + " unsteady.%n%n", runs.get(0).profile(), wall / starts, starts, failed == 0 ? ""
                        : String.format(Locale.ROOT, " that measured (%d more failed or did not run; their time is"
                        + " in the figure)", failed), Descriptive.median(w),
                Arrays.stream(w).min().orElseThrow(), Arrays.stream(w).max().orElseThrow(), w.length, unsteady);
    }

    /** A run's wall time spent on its starts: its total without setting up PostgreSQL and the dataset. */
    private static double wallOfStarts(RunRecord run, double total) {
        Double setUp = run.timing(RunRecord.TIMING_POSTGRES_AND_DATASET_S);
        return total - (setUp == null ? 0 : setUp);
    }

    /**
     * What Kalibera & Jones weigh, as the runs measured it: a start's wall time outside its measured windows (boot,
     * warmups, PostgreSQL excluded), and what one more window in each of a start's cells costs (the measured windows'
     * time over starts × windows per cell: a start of two cells pays two windows). Both are per start that measured:
     * a failed start's time is a cost of the starts that did, and it bought no window. Null when no run recorded both.
     */
    static double[] startAndWindowCost(List<RunRecord> runs) {
        double outside = 0;
        double windowTime = 0;
        int starts = 0;
        int cellStarts = 0;
        int cellWindowsMeasured = 0;
        for (RunRecord run : runs) {
            Double total = run.timing(RunRecord.TIMING_TOTAL_S);
            Double measured = run.timing(RunRecord.TIMING_MEASURED_WINDOWS_S);
            Integer perCell = run.windowsPerCell();
            RunRecord.MeasuredStarts counted = run.measuredStarts();
            if (counted.starts() == 0 || total == null || measured == null || perCell == null || perCell < 1) {
                continue;
            }
            outside += wallOfStarts(run, total) - measured;
            windowTime += measured;
            starts += counted.starts();
            cellStarts += counted.cellStarts();
            cellWindowsMeasured += counted.cellStartsMeasured() * perCell;
        }
        if (starts == 0 || outside <= 0 || windowTime <= 0) {
            return null;
        }
        // One window's mean time, times the cells a start runs.
        return new double[] {outside / starts, windowTime / cellWindowsMeasured * cellStarts / starts};
    }

    /**
     * Adds a line per reason for the trial's primary series that went unjudged because one side did not measure them
     * (a cell that left a metric out, RunResults): a trial judged on fewer series than its design must say so.
     */
    /**
     * The rows that made a judgement red, as the headline counts them ({@link Judgement#hasRegression}): "join-filter
     * capacity cpu_us_per_req +7.2 % (+5.3…+9.1 %), p 0.0031" for a primary regression, "join-filter capacity failed:
     * head failed: …" once for a failed cell (each of its series carries the failure).
     */
    static String whatRaised(Judgement judgement) {
        List<String> parts = new ArrayList<>();
        for (SeriesVerdict row : judgement.rows()) {
            if (row.verdict() == Verdict.FAILED) {
                String failed = row.scenario() + " " + row.regime() + " failed: " + row.reason();
                if (!parts.contains(failed)) {
                    parts.add(failed);
                }
            } else if (row.primary() && row.verdict() == Verdict.REGRESSION) {
                parts.add(String.format(Locale.ROOT, "%s %s %s %+.1f %%%s%s", row.scenario(), row.regime(),
                        row.metric(), row.changePct(), row.lowPct() == null || row.highPct() == null ? ""
                                : String.format(Locale.ROOT, " (%+.1f…%+.1f %%)", row.lowPct(), row.highPct()),
                        row.pValue() == null ? "" : String.format(Locale.ROOT, ", p %.2g", row.pValue())));
            }
        }
        return String.join("; ", parts);
    }

    static void unjudged(Judgement judgement, String trial, List<String> lines) {
        Map<String, List<String>> byReason = new java.util.TreeMap<>();
        for (SeriesVerdict row : judgement.rows()) {
            if (row.primary() && row.verdict() == Verdict.NO_VERDICT && row.reason() != null
                    && row.reason().startsWith("not measured")) {
                byReason.computeIfAbsent(row.reason(), k -> new ArrayList<>()).add(row.metric());
            }
        }
        byReason.forEach((reason, metrics) -> lines.add(trial + ": " + String.join(", ", metrics) + " — " + reason));
    }

    /**
     * Sets a cut record's host check of other work to its own measured starts' ({@code trials[].utilisation.others},
     * the share of the service's cores that other work took in a start): the most of them, and where. A trial is
     * withheld for a disturbed start of its own rounds, not for one elsewhere in the run. Steal is recorded over the
     * whole run only, and stays. A record whose starts have no utilisation keeps the run's figure.
     */
    static void othersOfTheseStarts(ObjectNode raw, String copy) {
        if (!(raw.path(RunRecord.HOST_CHECK) instanceof ObjectNode check)) {
            return;
        }
        Double most = null;
        String where = null;
        for (var cell : raw.withArray(RunRecord.CELLS)) {
            for (var trial : cell.path(RunRecord.CELL_TRIALS)) {
                var others = trial.path(RunRecord.TRIAL_UTILISATION).path(RunRecord.UTILISATION_OTHERS);
                if ("failed".equals(trial.path(RunRecord.TRIAL_STATUS).asText()) || !others.isNumber()) {
                    continue;
                }
                if (most == null || others.asDouble() > most) {
                    most = others.asDouble();
                    where = cell.path(RunRecord.CELL_VARIANT).asText() + (copy == null ? "" : " " + copy) + "/"
                            + cell.path(RunRecord.CELL_SCENARIO).asText()
                            + "/" + cell.path(RunRecord.CELL_REGIME).asText() + " start "
                            + (trial.path(RunRecord.TRIAL_INDEX).asInt() + 1);
                }
            }
        }
        if (most != null) {
            // As the run's check reads it (HostCheck: the share in %, to 0.001), so a drill trial and an A/B agree.
            check.put(RunRecord.HOST_OTHERS_PCT, Math.round(most * 100_000) / 1000.0);
            check.put(RunRecord.HOST_OTHERS_WHERE, where);
        }
    }

    /**
     * The part of a copy's record measured in rounds [from, to): the same cells with only those starts.
     *
     * @param label the copy's label ({@code a}, {@code cpu10}), said where a disturbed start is named; null: none
     */
    /**
     * The cell's bottleneck as its kept starts had it, as the run would have written it for them (RunResults: the
     * measured starts' bound when they agree, else "mixed"): the host gauge is used by it, so a trial whose starts
     * were all bound by the service must not qualify by the run's other starts.
     */
    private static void rebound(ObjectNode cell, com.fasterxml.jackson.databind.node.ArrayNode trials) {
        if (!cell.hasNonNull(RunRecord.CELL_BOTTLENECK)) {
            return;
        }
        List<String> bounds = new ArrayList<>();
        for (var trial : trials) {
            if ("ok".equals(trial.path(RunRecord.TRIAL_STATUS).asText())) { // failed or never begun: no bound
                if (!trial.hasNonNull(RunRecord.TRIAL_BOTTLENECK)) {
                    return; // a record older than the start's own bound: the cell's stays
                }
                bounds.add(trial.path(RunRecord.TRIAL_BOTTLENECK).asText());
            }
        }
        List<String> distinct = bounds.stream().distinct().toList();
        if (!distinct.isEmpty()) {
            cell.put(RunRecord.CELL_BOTTLENECK, distinct.size() == 1 ? distinct.get(0) : "mixed");
        }
    }

    static RunRecord rounds(RunRecord copy, int from, int to, String label) {
        var raw = copy.raw().deepCopy();
        for (var cell : raw.withArray(RunRecord.CELLS)) {
            var trials = (com.fasterxml.jackson.databind.node.ArrayNode) cell.path(RunRecord.CELL_TRIALS);
            // A failed start (recorded per start) or one never begun is a trial without values: the values follow the
            // measured trials.
            List<Integer> keep = new ArrayList<>();
            var keptTrials = raw.arrayNode();
            int measured = 0;
            for (int i = 0; i < trials.size(); i++) {
                int round = trials.get(i).path(RunRecord.TRIAL_ROUND).asInt(i);
                boolean failed = !"ok".equals(trials.get(i).path(RunRecord.TRIAL_STATUS).asText());
                if (round >= from && round < to) {
                    keptTrials.add(trials.get(i));
                    if (!failed) {
                        keep.add(measured);
                    }
                }
                measured += failed ? 0 : 1;
            }
            ((ObjectNode) cell).set(RunRecord.CELL_TRIALS, keptTrials);
            rebound((ObjectNode) cell, keptTrials);
            placeLacking((ObjectNode) cell, from, to);
            if (keep.isEmpty() && "ok".equals(cell.path(RunRecord.CELL_STATUS).asText())) {
                ((ObjectNode) cell).put(RunRecord.CELL_STATUS, "failed").put(RunRecord.CELL_REASON,
                        "every start of these rounds failed or was never begun");
                ((ObjectNode) cell).remove(RunRecord.CELL_METRICS);
            }
            cell.path(RunRecord.CELL_METRICS).properties().forEach(e -> {
                var metric = (ObjectNode) e.getValue();
                var values = raw.arrayNode();
                var windows = raw.arrayNode();
                keep.forEach(i -> {
                    values.add(metric.path(RunRecord.SUMMARY_VALUES).get(i));
                    windows.add(metric.path(RunRecord.SUMMARY_WINDOWS).get(i));
                });
                metric.set(RunRecord.SUMMARY_VALUES, values);
                metric.set(RunRecord.SUMMARY_WINDOWS, windows);
            });
        }
        othersOfTheseStarts(raw, label);
        for (var variant : raw.withArray(RunRecord.VARIANTS)) {
            variant.path(RunRecord.VARIANT_STARTUP).properties().forEach(e -> {
                var metric = (ObjectNode) e.getValue();
                var all = metric.path(RunRecord.SUMMARY_VALUES);
                var recordedRounds = metric.path(RunRecord.SUMMARY_ROUNDS);
                var values = raw.arrayNode();
                var rounds = raw.arrayNode();
                // By the round each value was measured in: a start that never got ready has none, so the index of a
                // value is not its round (a record older than the rounds field has one value per round).
                boolean byRound = recordedRounds.size() == all.size();
                for (int i = 0; i < all.size(); i++) {
                    int round = byRound ? recordedRounds.get(i).asInt() : i;
                    if (round >= from && round < to) {
                        values.add(all.get(i));
                        rounds.add(round);
                    }
                }
                metric.set(RunRecord.SUMMARY_VALUES, values);
                if (byRound) {
                    metric.set(RunRecord.SUMMARY_ROUNDS, rounds);
                }
            });
        }
        return RunRecord.of(raw, copy.runId() + " rounds " + from + "-" + to);
    }

    /**
     * A metric the cell left out names the first window without it, which may be a start of other rounds than these:
     * the record holds no values of the metric for any start, so the trial cannot judge it either, and says where the
     * window lies rather than name a start the trial does not have. A record older than the lacking round is left as
     * it reads.
     */
    private static void placeLacking(ObjectNode cell, int from, int to) {
        for (var metric : cell.path(RunRecord.CELL_LACKING)) {
            var round = metric.path(RunRecord.LACKING_ROUND);
            if (round.isInt() && (round.asInt() < from || round.asInt() >= to)) {
                ((ObjectNode) metric).put(RunRecord.LACKING_WHERE, metric.path(RunRecord.LACKING_WHERE).asText()
                        + " (in round " + (round.asInt() + 1) + ", outside rounds " + (from + 1) + "–" + to + ")");
            }
        }
    }

    /**
     * Variance components of every primary series over every start of the same jar — copy a, pooled with copy aa's
     * starts when the drill has one, in every pooled run — and the power they give a PR.
     */
    private static String components(List<RunRecord> sameJar, boolean withAa, int perTrial, MetricRules rules,
                                     int prRounds, int prSeries, double[] startAndWindowCost) {
        StringBuilder out = new StringBuilder();
        int windows = 0;
        out.append("Variance components of copy `a`").append(withAa ? " and `aa` (the same jar)" : "")
                .append(" over all ").append(withAa ? "their" : "its").append(" starts")
                .append(sameJar.size() > (withAa ? 2 : 1) ? " in every run" : "")
                .append(" (ln scale, shown as CV %), and what they imply for ./bench ab's rule (simulated, 4,000"
                        + " replications, +10 % in one series, Holm over the others, judged once after the last round"
                        + " with the metric's minimum effect):\n\n");
        int trialSeries = trialFamily(sameJar.get(0));
        TextTable table = TextTable.of(List.of("series", "starts × windows", "between starts", "within a start",
                "optimal windows/start", "detects +10 % with " + perTrial + " rounds, " + trialSeries + " series",
                "with " + prRounds + " rounds, " + prSeries + " series",
                "rounds for 95 % at " + prSeries + " series"), 1);
        for (RunRecord.Point point : sameJar.get(0).points()) {
            if (!point.primary() || point.windows().length == 0 || !allPositive(point.windows())) {
                continue;
            }
            double[][] starts = pooled(point, sameJar);
            if (!allPositive(starts)) {
                continue;
            }
            VarianceComponents.Components c = VarianceComponents.estimate(starts);
            windows = point.windows()[0].length;
            PowerSimulation.Noise noise = PowerSimulation.Noise.of(c);
            double minEffect = rules.minEffectPct(point.metric());
            double drill = PowerSimulation.simulate(noise, new PowerSimulation.Design(perTrial, windows), 1.10,
                    AbCommand.ALPHA, minEffect, trialSeries, 4000, 1).detectionRate();
            double pr = PowerSimulation.simulate(noise, new PowerSimulation.Design(prRounds, windows), 1.10,
                    AbCommand.ALPHA, minEffect, prSeries, 4000, 2).detectionRate();
            int needed = roundsFor95(noise, windows, minEffect, prSeries, 2000);
            // D8: the between-start CV's own precision, and the rounds at both ends of it (the within fixed).
            Interval between = VarianceComponents.betweenCvInterval(starts, 0.90, 1000, 4);
            String betweenText = pct(c.betweenCvPct());
            String neededText = needed < 0 ? "> 60" : Integer.toString(needed);
            if (between != null) {
                betweenText += " (" + pct(between.low()) + "–" + pct(between.high()) + ")";
                int low = roundsFor95(new PowerSimulation.Noise(sd(between.low()), noise.withinStartSd(), 0), windows,
                        minEffect, prSeries, 1000);
                int high = roundsFor95(new PowerSimulation.Noise(sd(between.high()), noise.withinStartSd(), 0), windows,
                        minEffect, prSeries, 1000);
                neededText += " (" + (low < 0 ? "> 60" : low) + "–" + (high < 0 ? "> 60" : high) + ")";
            }
            table.row(point.seriesKey(), c.starts() + " × " + windows, betweenText, pct(c.withinCvPct()),
                    startAndWindowCost == null ? "—" : Integer.toString(c.optimalWindowsPerStart(
                            startAndWindowCost[0], startAndWindowCost[1], 20)),
                    pct(100 * drill), pct(100 * pr), neededText);
        }
        out.append(table.markdown());
        out.append("\n(Between starts with its 90 % parametric-bootstrap interval, and the rounds at both ends of it."
                + " Optimal windows per start by Kalibera & Jones, ")
                .append(startAndWindowCost == null ? "not computed: the records lack the start's wall time or its"
                        + " windows' time" : String.format(Locale.ROOT, "for a start's %.0f s outside its windows and"
                        + " %.1f s per window in each of its cells, as measured", startAndWindowCost[0],
                        startAndWindowCost[1]))
                .append(".)\n");
        return out.toString();
    }

    /**
     * How far each start's last window read from its first, over every start of the same jar, per primary series the
     * host can move (review D9: the steady-state rule's drift test, halves of 1-s bins within max(5 %, 2 SE), passes a
     * 10 % drift over its span on noisy bins most of the time, so the JIT criterion is the effective guard). A warmup
     * that ended before the service settled leaves a trend across the windows, and the trend lands in the between-start
     * noise; a mean of ln(last / first) near 0 shows the rule's weakness did not bias the starts. The mean over the
     * starts, with its t interval (95 %). Empty with fewer than two windows per start.
     */
    static String residualDrift(List<RunRecord> sameJar, MetricRules rules) {
        TextTable table = TextTable.of(List.of("series", "starts", "last window over the first, mean (95 %)",
                "sd per start"), 1);
        int rows = 0;
        for (RunRecord.Point point : sameJar.get(0).points()) {
            if (!point.primary() || rules.hostIndependent().contains(point.metric()) || point.windows().length == 0
                    || point.windows()[0].length < 2) {
                continue;
            }
            // A start with a single window (a record that lacked the others) has no trend to show.
            double[][] starts = Arrays.stream(pooled(point, sameJar)).filter(windows -> windows.length >= 2)
                    .toArray(double[][]::new);
            if (starts.length < 2 || !allPositive(starts)) {
                continue;
            }
            double[] first = Arrays.stream(starts).mapToDouble(windows -> windows[0]).toArray();
            double[] last = Arrays.stream(starts).mapToDouble(windows -> windows[windows.length - 1]).toArray();
            PairedRatio.Result drift = PairedRatio.tTest(first, last, 0.95, 0.8);
            double sd = Descriptive.sd(PairedRatio.logRatios(first, last));
            table.row(point.seriesKey(), Integer.toString(starts.length), String.format(Locale.ROOT,
                    "%+.1f %% (%+.1f…%+.1f %%)", 100 * (drift.ratio() - 1), 100 * (drift.interval().low() - 1),
                    100 * (drift.interval().high() - 1)), pct(100 * sd));
            rows++;
        }
        if (rows == 0) {
            return "";
        }
        return "\n**Residual drift after the warmup** (each start's last window over its first, the same starts as the"
                + " components): a mean near 0 says the warmups ended where the service had settled; a trend here"
                + " would add to the noise between starts.\n\n" + table.markdown();
    }

    /** The fewest rounds at which +10 % in one of {@code series} is found 95 % of the time; −1 beyond 60. */
    private static int roundsFor95(PowerSimulation.Noise noise, int windows, double minEffect, int series,
                                   int replications) {
        for (int n = 2; n <= 60; n++) {
            if (PowerSimulation.simulate(noise, new PowerSimulation.Design(n, windows), 1.10, AbCommand.ALPHA,
                    minEffect, series, replications, 3).detectionRate() >= 0.95) {
                return n;
            }
        }
        return -1;
    }

    /** The log-scale sd of a CV in % (exact for a log-normal). */
    private static double sd(double cvPct) {
        double cv = cvPct / 100;
        return Math.sqrt(Math.log1p(cv * cv));
    }

    /**
     * D8: what a paired verdict faces, measured directly: per primary series, the rounds' log ratios of {@code aa}
     * against {@code a} (the same jar), their sd with its 90 % χ² interval, and the rounds a PR needs at that spread
     * (and at its interval's ends). The components above take the between-start part from starts pooled over rounds,
     * so any round-to-round drift, which pairing cancels, counts as noise there. A series {@code ab} judges relative to
     * a gauge of the host ({@code adjustedBy}) gets a second row, each start's value over its gauge's: the spread that
     * verdict faces where the cell qualifies. Each row also gives the share of this drill's own trials (perTrial rounds,
     * the cell's primary series in Holm's family) that the spread lets find +10 %, simulated: the rate an observed
     * +10 % kind is to be set against (issue 21: observed rates inside the simulation's intervals).
     */
    static String pairedSpread(List<RunRecord> runs, MetricRules rules, int perTrial, int prSeries) {
        RunRecord first = InterleavedRun.select(runs.get(0), "a", null);
        int trialSeries = trialFamily(first);
        TextTable table = TextTable.of(List.of("series", "rounds", "A/A paired sd per round (90 %)",
                "detects +10 % in a trial of " + perTrial + " rounds, " + trialSeries + " series",
                "rounds for 95 % at " + prSeries + " series"), 1);
        // Each run's copies selected and their series indexed once, not once per series.
        List<Map<String, Map<Integer, Double>>> a = new ArrayList<>();
        List<Map<String, Map<Integer, Double>>> aa = new ArrayList<>();
        for (RunRecord run : runs) {
            a.add(byRound(InterleavedRun.select(run, "a", null)));
            aa.add(byRound(InterleavedRun.select(run, "aa", null)));
        }
        for (RunRecord.Point point : first.points()) {
            if (!point.primary()) {
                continue;
            }
            double minEffect = rules.minEffectPct(point.metric());
            pairedRow(table, point.seriesKey(), pairedLogRatios(a, aa, point.seriesKey(), null), minEffect, perTrial,
                    trialSeries, prSeries);
            String gauge = rules.rule(point.metric()).adjustedBy();
            if (gauge != null) {
                String gaugeKey = point.cellKey() + "/" + gauge;
                pairedRow(table, point.seriesKey() + " relative to " + gauge,
                        pairedLogRatios(a, aa, point.seriesKey(), gaugeKey), minEffect, perTrial, trialSeries,
                        prSeries);
            }
        }
        return "\nThe A/A's paired spread (`aa` against `a`, round by round: what the paired verdict faces, drift between"
                + " rounds cancelled), the share of this drill's trials it lets find +10 % (simulated, 4,000 trials:"
                + " set it beside the observed rate of a +10 % kind) and the rounds for 95 % it implies (at the"
                + " interval's ends in brackets):\n\n" + table.markdown();
    }

    /**
     * Per round of every run (the runs' series by round of copies {@code a} and {@code aa}, in the same order),
     * ln(aa / a) of the series, or of the series over {@code gaugeKey}'s series of the same start when given; a round
     * lacking either side, or a value that is not positive, is left out.
     */
    private static List<Double> pairedLogRatios(List<Map<String, Map<Integer, Double>>> a,
                                                List<Map<String, Map<Integer, Double>>> aa, String seriesKey,
                                                String gaugeKey) {
        List<Double> logRatios = new ArrayList<>();
        for (int run = 0; run < a.size(); run++) {
            Map<Integer, Double> base = relative(a.get(run), seriesKey, gaugeKey);
            Map<Integer, Double> other = relative(aa.get(run), seriesKey, gaugeKey);
            base.forEach((round, value) -> {
                Double same = other.get(round);
                if (same != null) {
                    logRatios.add(Math.log(same / value));
                }
            });
        }
        return logRatios;
    }

    /** The series' positive values by round, each over the gauge's value of its round when a gauge is given. */
    private static Map<Integer, Double> relative(Map<String, Map<Integer, Double>> series, String seriesKey,
                                                 String gaugeKey) {
        Map<Integer, Double> gauge = gaugeKey == null ? null : series.getOrDefault(gaugeKey, Map.of());
        Map<Integer, Double> out = new java.util.TreeMap<>();
        series.getOrDefault(seriesKey, Map.of()).forEach((round, value) -> {
            Double by = gauge == null ? Double.valueOf(1) : gauge.get(round);
            if (value > 0 && by != null && by > 0) {
                out.put(round, value / by);
            }
        });
        return out;
    }

    private static void pairedRow(TextTable table, String label, List<Double> logRatios, double minEffect,
                                  int perTrial, int trialSeries, int prSeries) {
        double[] spread = VarianceComponents.pairedSd(logRatios.stream().mapToDouble(Double::doubleValue).toArray(),
                0.90);
        if (spread == null) {
            return;
        }
        String[] rounds = new String[3];
        String[] trial = new String[3];
        for (int i = 0; i < 3; i++) {
            // A paired log ratio per round of sd s: one side with sd s/√2, the other none (no windows to split).
            PowerSimulation.Noise noise = new PowerSimulation.Noise(spread[i] / Math.sqrt(2), 0, 0);
            int n = roundsFor95(noise, 1, minEffect, prSeries, i == 0 ? 2000 : 1000);
            rounds[i] = n < 0 ? "> 60" : Integer.toString(n);
            trial[i] = pct(100 * PowerSimulation.simulate(noise, new PowerSimulation.Design(perTrial, 1), 1.10,
                    AbCommand.ALPHA, minEffect, trialSeries, 4000, 5 + i).detectionRate());
        }
        // A larger spread finds less: the interval's low end of the spread gives the high end of the rate.
        table.row(label, Integer.toString(logRatios.size()),
                pct(100 * spread[0]) + " (" + pct(100 * spread[1]) + "–" + pct(100 * spread[2]) + ")",
                trial[0] + " (" + trial[2] + "–" + trial[1] + ")",
                rounds[0] + " (" + rounds[1] + "–" + rounds[2] + ")");
    }

    /** Every series of the record by round; the first point of a key where a record repeats one. */
    private static Map<String, Map<Integer, Double>> byRound(RunRecord record) {
        Map<String, Map<Integer, Double>> out = new java.util.HashMap<>();
        for (RunRecord.Point point : record.points()) {
            out.putIfAbsent(point.seriesKey(), point.byRound());
        }
        return out;
    }

    /**
     * The starts of the point's series in every record of the same jar, in order; a record whose windows per start
     * differ from the point's is left out (its starts are not samples of the same design).
     */
    static double[][] pooled(RunRecord.Point point, List<RunRecord> sameJar) {
        int windows = point.windows()[0].length;
        return sameJar.stream()
                .flatMap(record -> record.points().stream().filter(p -> p.seriesKey().equals(point.seriesKey()))
                        .filter(p -> p.windows().length > 0 && p.windows()[0].length == windows)
                        .limit(1))
                .flatMap(p -> Arrays.stream(p.windows()))
                .toArray(double[][]::new);
    }

    /** A trial's Holm family: its cell's primary series (4 since SQL statements became primary, not 3). */
    private static int trialFamily(RunRecord copyA) {
        return (int) Math.max(1, copyA.points().stream().filter(RunRecord.Point::primary).count());
    }

    private static boolean allPositive(double[][] values) {
        return Arrays.stream(values).flatMapToDouble(Arrays::stream).allMatch(v -> v > 0);
    }

    /** k of n with the Wilson 95 % interval. */
    static String rate(int k, int n) {
        if (n == 0) {
            return "—";
        }
        double z = 1.959964;
        double p = (double) k / n;
        double center = (p + z * z / (2 * n)) / (1 + z * z / n);
        double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / (1 + z * z / n);
        return String.format(Locale.ROOT, "%d/%d = %.0f %% (%.0f–%.0f %%)", k, n, 100 * p,
                100 * Math.max(0, center - half), 100 * Math.min(1, center + half));
    }

    private static String changes(List<Double> values) {
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return String.format(Locale.ROOT, "%+.1f %% (%+.1f…%+.1f)", sorted[sorted.length / 2], sorted[0],
                sorted[sorted.length - 1]);
    }

    private static String pct(double value) {
        return String.format(Locale.ROOT, "%.1f %%", value);
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }
}
