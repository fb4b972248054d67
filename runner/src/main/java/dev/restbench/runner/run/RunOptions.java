package dev.restbench.runner.run;

import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The options of `./bench run` (and of the runs `./bench ab` and `./bench drill` start). */
public record RunOptions(
        Path root,
        Path manifest,
        Optional<String> profile,
        Path resultsDir,
        List<String> variants,
        List<String> where,
        List<String> scenarios,
        Optional<String> databaseUrl,
        Map<String, String> services,
        String databaseUser,
        String databasePassword,
        boolean dryRun,
        boolean build,
        Tables tables,
        Optional<Path> history,
        Optional<Long> seed,
        int flameGraphRounds) {

    /** Profile every round (run --flamegraphs). */
    public static final int ALL_ROUNDS = Integer.MAX_VALUE;

    /** Whether the cells of this round (0-based) get a profiling window. */
    boolean flameGraphs(int round) {
        return round < flameGraphRounds;
    }

    /** What the terminal gets at the end: nothing, the answer (primary metrics, ≤ 100 columns) or every table. */
    public enum Tables { NONE, ANSWER, FULL }

    static final String HELP = """
            usage: ./bench run [options]

            Runs the benchmark matrix of a profile in rounds: each round starts every variant once, in an order
            shuffled per round (--seed); a started variant runs each scenario × regime cell on a fresh database
            cloned from the dataset template, with ONE Gatling JVM per cell: a warmup until the service is steady
            (JIT quiet, throughput and CPU/request flat; capped, else the cell is marked unsteady), then the
            profile's measured windows back to back (capacity: closed model; latency: open model at a fixed rate).
            Writes results/<run-id>/ and prints the summary tables (docs/verdicts.md, "Method"). Exit 0 only
            when every cell succeeded.

            options:
              --profile NAME         smoke | quick | full | matrix (default: the manifest's defaultProfile, quick)
              --manifest FILE        manifest (default: <root>/benchmarks.json)
              --root DIR             repository root holding the variant jars and gatling/ (default: the
                                     checkout ./bench lives in)
              --results DIR          where results/<run-id>/ goes (default: <root>/results)
              --variants A,B         only these variants (default: the profile's list, else all)
              --where KEY=GLOB       only variants whose classification matches (repeatable, all must match;
                                     keys: framework, server, threading, language, dataAccess, runtime,
                                     runtimeVersion, jdk, dialect, …), e.g. --where server='*'
                                     --where framework='spring-mvc*' --where jdk=25
              --scenarios A,B        only these scenarios (default: the profile's)
              --database-url URL     use this PostgreSQL server instead of the embedded one, e.g.
                                     jdbc:postgresql://host:5432/postgres (also: env DATABASE_URL); the runner
                                     creates its template and per-cell databases there
              --services A=URL,B=URL measure variants that already run at these base URLs (e.g. the compose
                                     stack: jersey=http://127.0.0.1:8081) instead of starting them: no
                                     start, stop or pinning by the runner, CPU/request from the services' own
                                     process_cpu_time, no startup metrics. Needs --database-url naming the
                                     database those services use: the runner reloads the dataset into it
                                     before every cell. Without --variants: the variants named here. Not
                                     added to the local history unless --history is given.
              --database-user U      (env DATABASE_USER, default postgres)
              --database-password P  (env DATABASE_PASSWORD, default postgres)
              --dry-run              validate the manifest, check every selected variant (its runtime is on this
                                     machine, its artifact exists or it has a build step), print the plan,
                                     run nothing; exit 2 when a check fails
              --no-build             do not build stale or missing variant artifacts first (./bench build does;
                                     also env BENCH_SKIP_BUILD=1)
              --no-tables            do not print the result tables at the end
              --full-tables          print every table (as summary.md holds them) instead of the primary metrics
              --history DIR          append the finished run to this history (gh-pages layout) and put the site
                                     next to it (default: <root>/history when --results is not given, so local
                                     runs build up a trend; none otherwise)
              --no-history           do not append to any history
              --seed N               seed of the randomized order of the variants in each round (default: random,
                                     recorded in run.json)
              --flamegraphs          after each cell's published windows, one more window of the same load
                                     (at least 10 s) with JDK Flight Recorder on the service: CPU and allocation
                                     flame graphs in flamegraphs/<cell>/ (cpu.html, alloc.html, collapsed
                                     stacks, recording.jfr), linked from run.json; no figure comes from that
                                     window. JVM variants only.
            """;

    /** A run started by another command (ab, drill): the embedded database, no history, tables printed. */
    public static RunOptions of(Path root, Path manifest, String profile, Path resultsDir, List<String> variants,
                                List<String> scenarios, Long seed) {
        return of(root, manifest, profile, resultsDir, variants, scenarios, seed, 0);
    }

    /** @param flameGraphRounds the first rounds whose cells get a profiling window (0: none) */
    public static RunOptions of(Path root, Path manifest, String profile, Path resultsDir, List<String> variants,
                                List<String> scenarios, Long seed, int flameGraphRounds) {
        // The caller built the variants (ab: in their worktrees; drill: the checkout's) before deriving the manifest.
        return new RunOptions(root, manifest, Optional.of(profile), resultsDir.toAbsolutePath(), variants, List.of(),
                scenarios, env("DATABASE_URL"), Map.of(), env("DATABASE_USER").orElse("postgres"),
                env("DATABASE_PASSWORD").orElse("postgres"), false, false, Tables.ANSWER, Optional.empty(),
                Optional.ofNullable(seed), flameGraphRounds);
    }

    static RunOptions parse(List<String> args) {
        Options o = Options.parse(args,
                Set.of("profile", "manifest", "root", "results", "variants", "where", "scenarios", "database-url",
                        "database-user", "database-password", "history", "services", "seed"),
                Set.of("dry-run", "no-tables", "full-tables", "no-history", "no-build", "flamegraphs"));
        if (!o.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + o.positional().get(0) + "'");
        }
        Path root = Path.of(o.value("root").orElse(System.getProperty("restbench.root", "."))).toAbsolutePath().normalize();
        Optional<String> dbUrl = o.value("database-url").or(() -> env("DATABASE_URL"));
        Map<String, String> services = services(o.value("services"));
        if (!services.isEmpty() && dbUrl.isEmpty()) {
            throw new UsageException("--services needs --database-url (or DATABASE_URL): the database those services"
                    + " use, which the runner reloads with the dataset before every cell");
        }
        return new RunOptions(
                root,
                o.value("manifest").map(Path::of).orElse(root.resolve("benchmarks.json")),
                o.value("profile"),
                o.value("results").map(Path::of).orElse(root.resolve("results")).toAbsolutePath(),
                list(o.value("variants")),
                o.values("where"),
                list(o.value("scenarios")),
                dbUrl,
                services,
                o.value("database-user").or(() -> env("DATABASE_USER")).orElse("postgres"),
                o.value("database-password").or(() -> env("DATABASE_PASSWORD")).orElse("postgres"),
                o.flag("dry-run"),
                !o.flag("no-build") && !"1".equals(System.getenv("BENCH_SKIP_BUILD")),
                o.flag("no-tables") ? Tables.NONE : o.flag("full-tables") ? Tables.FULL : Tables.ANSWER,
                history(o, root),
                o.value("seed").map(RunOptions::seed),
                o.flag("flamegraphs") ? ALL_ROUNDS : 0);
    }

    private static Optional<Path> history(Options o, Path root) {
        if (o.flag("no-history")) {
            return Optional.empty();
        }
        if (o.value("history").isPresent()) {
            return o.value("history").map(Path::of);
        }
        // Only the plain local run feeds the local history; tests, CI and A/B runs pass --results. Services at URLs
        // may run other code than this checkout's commit, the key of every history entry: kept out unless asked.
        return o.value("results").isPresent() || o.value("services").isPresent() ? Optional.empty()
                : Optional.of(root.resolve("history"));
    }

    /** {@code name=url,name=url} → ordered map; every entry must be a name and an http(s) URL. */
    static Map<String, String> services(Optional<String> csv) {
        Map<String, String> services = new LinkedHashMap<>();
        for (String entry : list(csv)) {
            int eq = entry.indexOf('=');
            String name = eq < 0 ? "" : entry.substring(0, eq).trim();
            String url = eq < 0 ? "" : entry.substring(eq + 1).trim();
            if (name.isEmpty() || !url.matches("https?://[^/\\s]+(/\\S*)?")) {
                throw new UsageException("--services: '" + entry + "' is not variant=http://host:port");
            }
            if (services.put(name, url.endsWith("/") ? url.substring(0, url.length() - 1) : url) != null) {
                throw new UsageException("--services: variant '" + name + "' is given twice");
            }
        }
        return services;
    }

    private static long seed(String text) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new UsageException("--seed must be an integer, was '" + text + "'");
        }
    }

    private static Optional<String> env(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    }

    static List<String> list(Optional<String> csv) {
        return csv.map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
    }
}
