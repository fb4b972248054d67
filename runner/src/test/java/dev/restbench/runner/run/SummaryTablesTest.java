package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTablesTest {

    @Test
    void aLongSentenceIsWrappedAtSpacesWithinTheWidthAndIndentedAfterTheFirstLine() {
        String line = "  read-heavy: jersey 716 µs; jersey-jdk25 1.0×, spring-mvc 1.3×, spring-mvc-virtual 1.3×,"
                + " spring-data-rest 3.5×";
        String wrapped = SummaryTables.wrap(line, "    ", 60);
        assertThat(wrapped).isEqualTo("""
                  read-heavy: jersey 716 µs; jersey-jdk25 1.0×, spring-mvc
                    1.3×, spring-mvc-virtual 1.3×, spring-data-rest 3.5×
                """);
        assertThat(wrapped.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(SummaryTables.wrap("  short", "    ", 60)).isEqualTo("  short\n");
    }

    /**
     * The manifest's sweep profile (seed 004): one table with a column per users-N step, each cell "req/s · p99",
     * a failed step says so, and no separate capacity-style table per step.
     */
    @Test
    void theConcurrencySweepIsOneTableWithAColumnPerStep() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Manifest manifest = ManifestLoader.load(root.resolve("benchmarks.json"));
        RunSelection selection = RunSelection.of(manifest, RunCommandTest.options("--root", root.toString(),
                "--profile", "sweep", "--variants", "express,jersey", "--seed", "1"));
        assertThat(selection.regimes()).containsExactly("users-10", "users-25", "users-50", "users-100");
        RunResults results = new RunResults(selection);
        double[] rps = {900, 1500, 1700, 1650};
        long[] p99 = {12, 25, 60, 140};
        List<String> steps = selection.regimes();
        for (String variant : List.of("express", "jersey")) {
            int trial = results.startTrial(variant);
            for (int i = 0; i < steps.size(); i++) {
                RunResults.CellKey key = new RunResults.CellKey(variant, "mixed", steps.get(i));
                CellSession.Outcome outcome = variant.equals("jersey") && i == 3
                        ? CellSession.Outcome.failed("p99 2400 ms exceeds the capacity bound of 2000 ms", 30, "r")
                        : outcome(rps[i] * (variant.equals("jersey") ? 2 : 1), p99[i]);
                results.add(key, new RunResults.TrialResult(trial, 0, outcome));
            }
        }
        String answer = new SummaryTables(manifest, selection, results).answer();
        assertThat(answer).contains("concurrency sweep: req/s · p99 ms per step (U = unsteady) (n = 1 start per cell)")
                .doesNotContain("users-10: value");
        List<String> lines = answer.lines().toList();
        int header = lines.indexOf(lines.stream().filter(l -> l.startsWith("Scenario")
                && l.contains("10 users")).findFirst().orElseThrow());
        assertThat(lines.get(header)).containsSubsequence("10 users", "25 users", "50 users", "100 users");
        assertThat(lines.get(header + 2)).startsWith("mixed").contains("express")
                .containsSubsequence("900 · 12", "1500 · 25", "1700 · 60", "1650 · 140");
        assertThat(lines.get(header + 3)).contains("jersey").containsSubsequence("1800 · 12", "3400 · 60", "FAILED");
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    }

    /** The answer's sentence per scenario: the least CPU per request, the others as ratios with their 95 % CI. */
    @Test
    void theSentenceGivesEachRatioWithItsIntervalOverTheStarts() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Manifest manifest = ManifestLoader.load(root.resolve("benchmarks.json"));
        RunSelection selection = RunSelection.of(manifest, RunCommandTest.options("--root", root.toString(),
                "--profile", "quick", "--variants", "jersey,spring-mvc", "--scenarios", "read-heavy", "--seed", "1"));
        RunResults results = new RunResults(selection);
        double[][] cpu = {{100, 110}, {200, 220}}; // per variant, its two starts
        for (int start = 0; start < 2; start++) {
            for (int v = 0; v < 2; v++) {
                String variant = v == 0 ? "jersey" : "spring-mvc";
                int trial = results.startTrial(variant);
                for (String regime : List.of("capacity")) {
                    Map<String, Double> metrics = new LinkedHashMap<>();
                    metrics.put("throughput", 1000.0);
                    metrics.put("cpu_us_per_req", cpu[v][start]);
                    List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, metrics, null));
                    results.add(new RunResults.CellKey(variant, "read-heavy", regime), new RunResults.TrialResult(trial,
                            start, new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r", null)));
                }
            }
        }
        String answer = new SummaryTables(manifest, selection, results).answer();
        // 2.0× exactly; both cells' log sds are ln(1.1)/√2, so Welch's df = 2: 2 × exp(±4.3027 × 0.0674) = 1.50–2.67.
        // The ratio compares more than the framework, and says so.
        assertThat(answer).contains("CPU per request (capacity; × the least, 95 % CI)\n"
                + "  read-heavy: jersey 105 µs; spring-mvc 2.0× (1.5–2.7) [framework, server, dataAccess, springBoot]\n");
    }

    /**
     * Issue 23: a framework ratio does not silently carry an ORM. With variants on two data accesses, each scenario's
     * sentence is followed by the comparison within each data access and by the data access's cost per framework
     * (variants alike in every other key), each ratio naming the keys it compares.
     */
    @Test
    void theAnswerHoldsTheDataAccessFixedAndShowsItsCostPerFramework() {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        List<String> variants = FOUR_STACKS;
        RunSelection selection = fourStacks(manifest, "read-heavy");
        RunResults results = new RunResults(selection);
        Map<String, double[]> cpu = Map.of("jersey", new double[] {100, 110}, "jersey-jpa", new double[] {150, 165},
                "quarkus", new double[] {80, 88}, "spring-mvc", new double[] {200, 220});
        for (int start = 0; start < 2; start++) {
            for (String variant : variants) {
                int trial = results.startTrial(variant);
                Map<String, Double> metrics = new LinkedHashMap<>();
                metrics.put("throughput", 1000.0);
                metrics.put("cpu_us_per_req", cpu.get(variant)[start]);
                List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, metrics, null));
                results.add(new RunResults.CellKey(variant, "read-heavy", "capacity"), new RunResults.TrialResult(trial,
                        start, new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r", null)));
            }
        }
        String answer = new SummaryTables(manifest, selection, results).answer();
        assertThat(answer).contains("""
                  read-heavy: quarkus 83.9 µs; jersey 1.3× (0.9–1.7) [framework, server, connectionPool], jersey-jpa
                    1.9× (1.4–2.5) [framework, server, dataAccess, connectionPool], spring-mvc 2.5× (1.9–3.3)
                    [framework, server, dataAccess, connectionPool, springBoot]
                    with dataAccess jdbc: quarkus 83.9 µs; jersey 1.3× (0.9–1.7) [framework, server, connectionPool]
                    with dataAccess jpa: jersey-jpa 157 µs; spring-mvc 1.3× (1.0–1.8) [framework, server,
                      springBoot]
                    dataAccess alone (all else alike): jersey → jersey-jpa 1.5× (1.1–2.0) [dataAccess]
                """);;
        assertThat(answer.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(100));
    }

    /**
     * Where no cell ran a SQL statement (the no-database workload), the data access is not in play: the answer
     * compares across the variants only, without splitting them by a library none of them called.
     */
    @Test
    void withoutSqlTheAnswerDoesNotHoldTheDataAccessFixed() {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        List<String> variants = FOUR_STACKS;
        RunSelection selection = fourStacks(manifest, "cache-read");
        for (double statements : new double[] {0.0, 0.01}) {
            RunResults results = new RunResults(selection);
            for (String variant : variants) {
                int trial = results.startTrial(variant);
                Map<String, Double> metrics = new LinkedHashMap<>();
                metrics.put("throughput", 1000.0);
                metrics.put("cpu_us_per_req", variant.equals("jersey-jpa") ? 55.0 : 50.0);
                metrics.put("sql_statements_per_req", variant.equals("quarkus") ? statements : 0.0);
                List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, metrics, null));
                results.add(new RunResults.CellKey(variant, "cache-read", "capacity"), new RunResults.TrialResult(
                        trial, 0, new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r",
                                null)));
            }
            String answer = new SummaryTables(manifest, selection, results).answer();
            assertThat(answer).contains("cache-read: ");
            if (statements == 0) {
                assertThat(answer).doesNotContain("with dataAccess").doesNotContain("alone");
            } else {
                assertThat(answer).as("one statement counted puts the data access in play")
                        .contains("with dataAccess jdbc").contains("dataAccess alone");
            }
        }
    }

    /**
     * The fairness gate travels with the answer: variants that ran the same SQL per request share one figure; a
     * variant that ran 10 % more (an N+1, a missing join fetch) is named beside the others, flagged.
     */
    @Test
    void theAnswerSaysWhetherTheVariantsDidTheSameSqlWork() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        Manifest manifest = ManifestLoader.load(root.resolve("benchmarks.json"));
        RunSelection selection = RunSelection.of(manifest, RunCommandTest.options("--root", root.toString(),
                "--profile", "quick", "--variants", "jersey,spring-mvc,spring-data-rest", "--scenarios",
                "join-filter,mixed,heavy-body", "--seed", "1"));
        RunResults results = new RunResults(selection);
        Map<String, double[]> statements = Map.of("jersey", new double[] {2.0, 1.51, 2.0},
                "spring-mvc", new double[] {2.0, 1.52, 2.001}, "spring-data-rest", new double[] {2.21, 1.5, 2.002});
        for (String variant : List.of("jersey", "spring-mvc", "spring-data-rest")) {
            int trial = results.startTrial(variant);
            List<String> scenarios = List.of("join-filter", "mixed", "heavy-body");
            for (int s = 0; s < 3; s++) {
                Map<String, Double> metrics = new LinkedHashMap<>();
                metrics.put("throughput", 1000.0);
                metrics.put("sql_statements_per_req", statements.get(variant)[s]);
                List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, metrics, null));
                results.add(new RunResults.CellKey(variant, scenarios.get(s), "capacity"), new RunResults.TrialResult(
                        trial, 0, new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r", null)));
            }
        }
        String answer = new SummaryTables(manifest, selection, results).answer();
        assertThat(answer).contains("SQL statements per request (capacity, counted by PostgreSQL): join-filter ⚠ not"
                + " the same SQL work:\n  jersey 2.00, spring-mvc 2.00, spring-data-rest 2.21; mixed 1.50–1.52 for every"
                + " variant; heavy-body\n  2.00 for every variant\n");
    }

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    /** Two frameworks on two data accesses each, and their alike-but-for-it pair (jersey, jersey-jpa). */
    private static final List<String> FOUR_STACKS = List.of("jersey", "jersey-jpa", "quarkus", "spring-mvc");

    private static RunSelection fourStacks(Manifest manifest, String scenario) {
        return RunSelection.of(manifest, RunCommandTest.options("--root", ROOT.toString(), "--profile", "quick",
                "--variants", String.join(",", FOUR_STACKS), "--scenarios", scenario, "--seed", "1"));
    }

    private static CellSession.Outcome outcome(double rps, long p99) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("throughput", rps);
        metrics.put("latency_p99", (double) p99);
        List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, metrics, null),
                new CellSession.Window(5000, 5, metrics, null));
        return new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r", null);
    }
}
