package dev.restbench.runner.run;

import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Converters;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.build.VariantChecks;
import dev.restbench.manifest.Manifest;
import dev.restbench.runner.manifest.Manifests;

import dev.restbench.runner.history.History;
import dev.restbench.runner.site.SiteCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;

/** `./bench run`: the benchmark matrix of one profile. */
@Command(name = "run", header = "run the benchmarks of a profile (default quick) and write results/<run-id>/",
        description = "Runs the benchmark matrix of a profile in rounds: each round starts every variant once, in an"
                + " order shuffled per round (--seed); a started variant gets a fresh database cloned from"
                + " the dataset template and runs each scenario × regime cell on it, its rows reloaded before every"
                + " cell, with ONE Gatling JVM per cell: a warmup until the"
                + " service is steady (JIT quiet, throughput and CPU/request flat; capped, else the cell is marked"
                + " unsteady), then the profile's measured windows back to back (capacity: closed model; latency: open"
                + " model at a fixed rate). Writes results/<run-id>/ and prints the summary tables (docs/method.md,"
                + " \"Method\"). Exit 0 only when every cell succeeded.")
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--profile", paramLabel = "<name>",
            description = "one of the manifest's profiles (an unknown name lists them; default: its defaultProfile,"
                    + " quick)")
    private String profile;

    @Option(names = "--manifest", paramLabel = "<file>", description = "manifest (default: <root>/benchmarks.json)")
    private Path manifest;

    @Mixin
    private RootOption root;

    @Option(names = "--results", paramLabel = "<dir>", description = "where results/<run-id>/ goes (default: <root>/results)")
    private Path results;

    @Option(names = "--variants", paramLabel = "a,b", description = "only these variants (default: the profile's list, else all)")
    private String variants;

    @Option(names = "--where", paramLabel = "key=glob",
            description = "only variants whose classification matches (repeatable, all must match; keys: framework,"
                    + " server, threading, language, dataAccess, runtime, runtimeVersion, jdk, dialect, …), for"
                    + " example --where server='*' --where framework='spring-mvc*' --where jdk=25")
    private List<String> where = new ArrayList<>();

    @Option(names = "--scenarios", paramLabel = "a,b", description = "only these scenarios (default: the profile's)")
    private String scenarios;

    @Option(names = "--regimes", paramLabel = "a,b",
            description = "only these regimes of the profile's (capacity, latency; default: the profile's), e.g."
                    + " --regimes capacity for the answer's cells alone")
    private String regimes;

    @Option(names = "--database-url", paramLabel = "<url>",
            description = "use this PostgreSQL server (jdbc:postgresql://host:5432/postgres) instead of the embedded"
                    + " one (also: env DATABASE_URL); the runner creates its template and per-cell databases there")
    private String databaseUrl;

    @Option(names = "--services", paramLabel = "a=<url>,b=<url>",
            description = "measure variants that already run at these base URLs (e.g. the compose stack:"
                    + " jersey=http://127.0.0.1:8081) instead of starting them: no start, stop or pinning by the"
                    + " runner, CPU/request from the services' own process_cpu_time, no startup metrics. Needs"
                    + " --database-url naming the database those services use: the runner reloads the dataset into it"
                    + " before every cell. Without --variants: the variants named here. Not added to the local history"
                    + " unless --history is given.")
    private String services;

    @Option(names = "--database-user", paramLabel = "<user>", description = "(env DATABASE_USER, default postgres)")
    private String databaseUser;

    @Option(names = "--database-password", paramLabel = "<password>", description = "(env DATABASE_PASSWORD, default postgres)")
    private String databasePassword;

    @Option(names = "--dry-run", arity = "0",
            description = "validate the manifest, check every selected variant (its runtime is on this machine, its"
                    + " artifact exists or it has a build step), print the plan, run nothing; exit 2 when a check fails")
    private boolean dryRun;

    @Option(names = "--budget-minutes", paramLabel = "<m>", converter = Converters.PositiveNumber.class,
            description = "the time this command may take, builds included (a CI job's timeout, less its set-up): a"
                    + " plan whose lower bound (warmups at their minimum, no start-up counted) exceeds it is refused"
                    + " before anything is built, exit 2; otherwise a start that might not end in time is not begun"
                    + " and its cells are recorded as not measured (\"budget: not started …\"; not failed), so"
                    + " run.json is always written")
    private Double budgetMinutes;

    @Option(names = "--missing-runtimes", paramLabel = "refuse|record", converter = MissingRuntimesConverter.class,
            description = "a selected variant whose runtime (its JDK or Node.js version) is not on this machine:"
                    + " refuse (default) the whole run, exit 2, nothing written; or record it: the variant is neither"
                    + " built nor started, each of its cells is recorded as not measured with the reason"
                    + " (\"runtime: …\"; not failed), the others run and the run is written — for a CI runner, where one"
                    + " missing runtime must not lose the run. Refused all the same when no selected variant has its"
                    + " runtime; other problems (a missing artifact without build step, …) always refuse")
    private RunOptions.MissingRuntimes missingRuntimes = RunOptions.MissingRuntimes.REFUSE;

    @Option(names = "--no-build", arity = "0",
            description = "do not build stale or missing variant artifacts first (./bench build does; also env"
                    + " BENCH_SKIP_BUILD=1)")
    private boolean noBuild;

    @Option(names = "--no-tables", arity = "0", description = "do not print the result tables at the end")
    private boolean noTables;

    @Option(names = "--full-tables", arity = "0",
            description = "print every table (as summary.md holds them) instead of the primary metrics")
    private boolean fullTables;

    @Option(names = "--history", paramLabel = "<dir>",
            description = "append the finished run to this history (gh-pages layout) and put the site next to it"
                    + " (default: <root>/history when --results is not given, so local runs build up a trend; none"
                    + " otherwise)")
    private Path history;

    @Option(names = "--no-history", arity = "0", description = "do not append to any history")
    private boolean noHistory;

    @Option(names = "--seed", paramLabel = "<n>",
            description = "seed of the randomized order of the variants in each round (default: random, recorded in"
                    + " run.json)")
    private Long seed;

    @Option(names = "--flamegraphs", arity = "0",
            description = "after each cell's published windows, one more window of the same load (at least 10 s)"
                    + " with JDK Flight Recorder on the service: CPU and allocation flame graphs in"
                    + " flamegraphs/<cell>/ (cpu.html, alloc.html, collapsed stacks, recording.jfr), linked from"
                    + " run.json; no figure comes from that window. JVM variants only.")
    private boolean flameGraphs;

    /** The parsed options, with the environment's defaults (DATABASE_URL, …) filled in. */
    RunOptions options() {
        Path rootDir = root.path();
        Optional<String> dbUrl = Optional.ofNullable(databaseUrl).or(() -> RunOptions.env("DATABASE_URL"));
        Map<String, String> urls = RunOptions.services(Optional.ofNullable(services));
        if (!urls.isEmpty() && dbUrl.isEmpty()) {
            throw new UsageException("--services needs --database-url (or DATABASE_URL): the database those services"
                    + " use, which the runner reloads with the dataset before every cell");
        }
        return new RunOptions(
                rootDir,
                manifest != null ? manifest : rootDir.resolve("benchmarks.json"),
                Optional.ofNullable(profile),
                (results != null ? results : rootDir.resolve("results")).toAbsolutePath(),
                RunOptions.list(Optional.ofNullable(variants)),
                List.copyOf(where),
                RunOptions.list(Optional.ofNullable(scenarios)),
                RunOptions.list(Optional.ofNullable(regimes)),
                dbUrl,
                urls,
                Optional.ofNullable(databaseUser).or(() -> RunOptions.env("DATABASE_USER")).orElse("postgres"),
                Optional.ofNullable(databasePassword).or(() -> RunOptions.env("DATABASE_PASSWORD")).orElse("postgres"),
                dryRun,
                !noBuild && !"1".equals(System.getenv("BENCH_SKIP_BUILD")),
                noTables ? RunOptions.Tables.NONE : fullTables ? RunOptions.Tables.FULL : RunOptions.Tables.ANSWER,
                historyDir(rootDir),
                Optional.ofNullable(seed),
                flameGraphs ? RunOptions.ALL_ROUNDS : 0,
                missingRuntimes,
                RunOptions.FailedStarts.FAIL_THE_CELL);
    }

    /** "refuse" | "record" (lower case, as the help names them). */
    static final class MissingRuntimesConverter implements CommandLine.ITypeConverter<RunOptions.MissingRuntimes> {
        @Override
        public RunOptions.MissingRuntimes convert(String text) {
            for (RunOptions.MissingRuntimes value : RunOptions.MissingRuntimes.values()) {
                if (value.name().toLowerCase(Locale.ROOT).equals(text)) {
                    return value;
                }
            }
            throw new CommandLine.TypeConversionException("must be refuse or record, was '" + text + "'");
        }
    }

    private Optional<Path> historyDir(Path rootDir) {
        if (noHistory) {
            return Optional.empty();
        }
        if (history != null) {
            return Optional.of(history);
        }
        // Only the plain local run feeds the local history; tests, CI and A/B runs pass --results. Services at URLs
        // may run other code than this checkout's commit, the key of every history entry: kept out unless asked.
        return results != null || services != null ? Optional.empty() : Optional.of(rootDir.resolve("history"));
    }

    @Override
    public Integer call() throws Exception {
        long startedNanos = System.nanoTime();
        RunOptions options = options();
        // A malformed stated host speed stops the run here, before any build, not once the builds are done.
        HostCheck.referenceFromEnvironment();
        Manifest manifest = Manifests.load(options.manifest());
        RunSelection selection = RunSelection.of(manifest, options);
        Runtimes runtimes = Runtimes.ofThisMachine();
        // Variants at URLs (--services) are neither built nor started here.
        List<Manifest.Variant> started = selection.variants().stream()
                .filter(v -> !options.services().containsKey(v.name())).toList();
        VariantBuilder builder = options.build()
                ? new VariantBuilder(options.root(), manifest, runtimes, System.out) : null;
        boolean record = options.missingRuntimes() == RunOptions.MissingRuntimes.RECORD;
        VariantChecks.Report checks = VariantChecks.check(options.root(), manifest, started, runtimes, builder, record);
        if (options.dryRun()) {
            System.out.println(selection.describe());
            System.out.println("variants (runtime on this machine, artifact):");
            checks.lines().forEach(System.out::println);
        }
        Map<String, String> unavailable = checks.missingRuntimes();
        List<String> problems = new ArrayList<>(checks.problems());
        if (!unavailable.isEmpty() && unavailable.size() == selection.variants().size()) {
            // Recording them all as not measured would publish a run that measured nothing.
            unavailable.forEach((variant, why) -> problems.add(variant + ": " + why));
            problems.add("no selected variant has its runtime on this machine: nothing to measure");
        }
        if (!problems.isEmpty()) {
            // Before anything is built, started or written: a run that cannot start a variant is not begun.
            problems.forEach(p -> System.err.println("bench run: " + p));
            return 2;
        }
        unavailable.forEach((variant, why) -> System.out.println(variant + ": not measured, " + why));
        if (options.dryRun() && !unavailable.isEmpty()) {
            // The plan's line above counts every variant; the budget (and the run) counts only those that will start.
            System.out.println("wall time without the " + unavailable.size() + " variant(s) not measured: "
                    + selection.wallTime(unavailable.keySet()));
        }
        if (budgetMinutes != null && !fitsBudget(selection, unavailable.keySet(), budgetMinutes)) {
            return 2;
        }
        if (options.dryRun()) {
            return 0;
        }
        if (builder != null) {
            // A variant without its runtime is not built: its build may need that runtime (npm needs Node).
            builder.build(started.stream().filter(v -> !unavailable.containsKey(v.name())).toList(), false, false);
        }
        BenchmarkRun run = new BenchmarkRun(manifest, selection, options, unavailable, System.out);
        if (budgetMinutes != null) {
            // The builds above came out of the budget too: it is the whole command's.
            run.deadline(startedNanos + Math.round(budgetMinutes * 60e9));
        }
        int exit = run.execute(BenchmarkRun.RoundListener.ALL);
        if (options.history().isPresent() && run.runDirectory() != null
                && Files.isRegularFile(run.runDirectory().resolve("run.json"))) {
            appendToHistory(options, run.runDirectory(), options.history().get());
        }
        return exit;
    }

    /**
     * Whether the plan may begin within the budget: refused (false, the reason on stderr) when even its lower bound
     * exceeds it; a warning when only its at-cap figure does (the run then leaves out the starts that might not end
     * in time, BenchmarkRun.canStart).
     */
    static boolean fitsBudget(RunSelection selection, Set<String> skipped, double budgetMinutes) {
        long budget = Math.round(budgetMinutes * 60);
        long minimum = selection.minimumSeconds(skipped);
        long atCap = selection.atCapSeconds(skipped);
        String plan = "profile " + selection.profileName() + " over " + selection.variants().size() + " variant(s), "
                + selection.plan().trials().size() + " starts";
        if (minimum > budget) {
            System.err.println("bench run: " + plan + " needs at least " + RunSelection.duration(minimum)
                    + " (every warmup at its minimum, start-ups not counted) and the budget is "
                    + RunSelection.duration(budget) + ": nothing measured. Narrow it (--variants, --scenarios,"
                    + " --regimes), choose a smaller profile, or shard it over identical runners"
                    + " (docs/runner-host.md, \"When to shard\").");
            return false;
        }
        if (atCap > budget) {
            System.out.println("bench run: warning: " + plan + " takes at least " + RunSelection.duration(minimum)
                    + " and up to about " + RunSelection.duration(atCap) + " if its warmups reach their cap; the budget"
                    + " is " + RunSelection.duration(budget) + ": a start that might not end in time is not begun,"
                    + " and its cells are recorded as not measured.");
        }
        return true;
    }

    /** Local mode of the gh-pages flow: the same history files and site the workflow publishes. */
    private static void appendToHistory(RunOptions options, Path runDir, Path history) throws Exception {
        History.AppendResult result = new History(history).append(runDir, new History.AppendOptions(null, false, null));
        SiteCommand.publish(options.root().resolve("site"), history);
        System.out.println("history: " + (result.alreadyPresent() ? "already held " : "appended ") + result.runId()
                + " to " + history + "; see the trends with: ./bench site --serve"
                + (history.equals(options.root().resolve("history")) ? "" : " --history " + history));
    }
}
