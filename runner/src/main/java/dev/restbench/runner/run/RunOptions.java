package dev.restbench.runner.run;

import dev.restbench.runner.UsageException;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The options of `./bench run` (and of the runs `./bench ab` and `./bench drill` start). */
public record RunOptions(
        Path root,
        Path manifest,
        Optional<String> profile,
        Path resultsDir,
        List<String> variants,
        List<String> where,
        List<String> scenarios,
        List<String> regimes,
        Optional<String> databaseUrl,
        Map<String, String> services,
        String databaseUser,
        String databasePassword,
        boolean dryRun,
        boolean build,
        Tables tables,
        Optional<Path> history,
        Optional<Long> seed,
        int flameGraphRounds,
        MissingRuntimes missingRuntimes,
        FailedStarts failedStarts) {

    /** Profile every round (run --flamegraphs). */
    public static final int ALL_ROUNDS = Integer.MAX_VALUE;

    /** Whether the cells of this round (0-based) get a profiling window. */
    boolean flameGraphs(int round) {
        return round < flameGraphRounds;
    }

    /** What the terminal gets at the end: nothing, the answer (primary metrics, ≤ 100 columns) or every table. */
    public enum Tables { NONE, ANSWER, FULL }

    /**
     * A selected variant whose runtime is not on this machine: REFUSE the whole run (exit 2, nothing written), or
     * RECORD its cells as failed with the reason and run the others (the CI runner: one missing runtime must not
     * lose the run).
     */
    public enum MissingRuntimes { REFUSE, RECORD }

    /**
     * A start that failed in a cell (error budget, latency bound, crash): it FAILS_THE_CELL (a published figure is
     * never computed from the starts that happened to go well), or it is RECORDED_PER_START: the cell keeps the
     * figures of its other starts and the trial says it failed, so that an interleaved A/B can pair the rounds where
     * both sides ran and test failures per round (analysis.PairedJudge; one unlucky start must not decide a verdict).
     */
    public enum FailedStarts { FAIL_THE_CELL, RECORDED_PER_START }

    /** The same options with another failed-start policy. */
    public RunOptions with(FailedStarts policy) {
        return new RunOptions(root, manifest, profile, resultsDir, variants, where, scenarios, regimes, databaseUrl,
                services,
                databaseUser, databasePassword, dryRun, build, tables, history, seed, flameGraphRounds,
                missingRuntimes, policy);
    }

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
                scenarios, List.of(), env("DATABASE_URL"), Map.of(), env("DATABASE_USER").orElse("postgres"),
                env("DATABASE_PASSWORD").orElse("postgres"), false, false, Tables.ANSWER, Optional.empty(),
                Optional.ofNullable(seed), flameGraphRounds, MissingRuntimes.REFUSE, FailedStarts.FAIL_THE_CELL);
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

    static Optional<String> env(String name) {
        return Optional.ofNullable(System.getenv(name)).filter(v -> !v.isBlank());
    }

    static List<String> list(Optional<String> csv) {
        return csv.map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
    }
}
