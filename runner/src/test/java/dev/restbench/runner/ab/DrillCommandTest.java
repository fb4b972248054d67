package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DrillCommandTest {

    /** A drill run of 20 rounds: copies a, aa (same), cpu10 (+10 % CPU); 2 % per-start noise, 3 windows of 1 %. */
    private static RunRecord drill() {
        return drill("drill", 20, 21, RunFixtures.FINGERPRINT);
    }

    private static RunRecord drill(String runId, int roundCount, long seed, String fingerprint) {
        Random random = new Random(seed);
        ObjectNode run = RunFixtures.empty(runId, "abc", "2026-11-20T00:00:00Z", fingerprint, "quick");
        run.with("plan").put("rounds", roundCount);
        // As the runner writes them: the number of starts is part of the method and its hash.
        run.putObject("method").put("startsPerVariant", roundCount).put("windowsPerCell", 3).put("windowSeconds", 5);
        ((ObjectNode) run.get("environment")).put("methodHash", "sha256:method-with-" + roundCount + "-starts");
        int[] rounds = new int[roundCount];
        for (int r = 0; r < roundCount; r++) {
            rounds[r] = r;
        }
        for (String copy : List.of("a", "aa", "cpu10")) {
            double[][] cpu = new double[roundCount][];
            double[][] alloc = new double[roundCount][];
            for (int r = 0; r < roundCount; r++) {
                double start = 1 + 0.02 * random.nextGaussian();
                double level = 300 * (copy.equals("cpu10") ? 1.10 : 1.0) * start;
                cpu[r] = new double[] {level * (1 + 0.01 * random.nextGaussian()),
                        level * (1 + 0.01 * random.nextGaussian()), level * (1 + 0.01 * random.nextGaussian())};
                alloc[r] = new double[] {100_000, 100_100, 99_900};
            }
            RunFixtures.cell(run, "jersey--" + copy, "join-filter", "capacity",
                    Map.of("cpu_us_per_req", cpu, "alloc_bytes_per_req", alloc), rounds);
        }
        return RunFixtures.record(run);
    }

    @Test
    void independentTrialsOfDisjointRoundsGiveFalseAlarmAndDetectionRates() {
        String report = DrillCommand.report(drill(), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(), 2, 12);

        assertThat(report).contains("20 rounds of 3 copies (a, aa, cpu10), cut into 5 independent trials of 4 rounds");
        Matcher aa = Pattern.compile("\\| aa \\| 5 \\| (\\d)/5 = ").matcher(report);
        Matcher cpu = Pattern.compile("\\| cpu10 \\| 5 \\| \\d/5 = \\d+ % \\(\\d+–\\d+ %\\) \\| (\\d)/5 = ").matcher(report);
        assertThat(aa.find()).as(report).isTrue();
        assertThat(cpu.find()).as(report).isTrue();
        assertThat(Integer.parseInt(aa.group(1))).isZero();
        assertThat(Integer.parseInt(cpu.group(1))).isGreaterThanOrEqualTo(4);
        assertThat(report).as("a's starts pooled with aa's (the same jar)")
                .contains("copy `a` and `aa` (the same jar)")
                .contains("| jersey/join-filter/capacity/cpu_us_per_req | 40 × 3 | ");
        // A trial's Holm family is its cell's primary series, counted from the record (it read a fixed 3).
        long primary = InterleavedRun.select(drill(), "a", null).points().stream().filter(RunRecord.Point::primary)
                .count();
        assertThat(primary).isNotEqualTo(3);
        assertThat(report).contains("detects +10 % with 4 rounds, " + primary + " series");
        // Each red trial says what made it red: here cpu10's CPU, with its change, interval and p.
        assertThat(report).contains("**What raised each red trial:**")
                .containsPattern("- cpu10 trial 1 red by join-filter capacity cpu_us_per_req \\+\\d+\\.\\d % \\(\\+\\d+\\.\\d…"
                        + "\\+\\d+\\.\\d %\\), p \\d");
    }

    /** A failed cell makes a trial red as a PR's headline: the line names the cell and the failure. */
    @Test
    void aRedTrialFromAFailedStartNamesIt() {
        ObjectNode raw = drill().raw().deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.withArray("cells")) {
            if (cell.path("variant").asText().equals("jersey--aa")) {
                ((ObjectNode) cell).put("status", "failed").put("reason", "every start failed: exit 3 before ready");
            }
        }
        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa"), 4, RunFixtures.catalogue(), 2, 12);

        assertThat(report).contains("- aa trial 1 red by join-filter capacity failed: head failed: every start failed:"
                + " exit 3 before ready\n");
    }

    /**
     * The failure fault's rate: trials in which a start of either side failed, and how many of them went red; the
     * faults each copy ran with come from the record, so a pooled report shows what it pools.
     */
    @Test
    void trialsWithAFailedStartAreCountedWithTheFaultsRecorded() {
        ObjectNode raw = drill().raw().deepCopy();
        for (String copy : List.of("a", "aa", "cpu10")) {
            ObjectNode variant = raw.withArray("variants").addObject().put("name", "jersey--" + copy);
            variant.putObject("startup");
            ObjectNode faults = variant.putObject("faults").put("FAULT_START_FAIL_PERCENT", "30");
            if (copy.equals("cpu10")) {
                faults.put("FAULT_CPU_PERCENT", "10");
            }
        }
        // aa failed a start in trial 1 (round 1) and a failed in trial 3 (round 10): two aa trials and one cpu10 trial
        // (a is every kind's base) carry a failure.
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.withArray("cells")) {
            String variant = cell.path("variant").asText();
            if (variant.equals("jersey--aa")) {
                RunFixtures.failStart((ObjectNode) cell, 1, "fault: start failed on purpose");
            } else if (variant.equals("jersey--a")) {
                RunFixtures.failStart((ObjectNode) cell, 10, "fault: start failed on purpose");
            }
        }
        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa", "cpu10"), 4,
                RunFixtures.catalogue(), 2, 12);

        assertThat(report).contains("- `drill`: a: FAULT_START_FAIL_PERCENT=30; aa: FAULT_START_FAIL_PERCENT=30; cpu10:"
                + " FAULT_CPU_PERCENT=10, FAULT_START_FAIL_PERCENT=30\n");
        assertThat(report).containsPattern("\\| aa \\| 5 \\| 0/5 = [^|]+\\| — \\| — \\| 0/2 = 0 % \\(0–\\d+ %\\) \\|");
        assertThat(report).containsPattern("\\| cpu10 \\| 5 \\| [^|]+\\|[^|]+\\|[^|]+\\| \\d/1 = ");
        assertThat(DrillCommand.report(drill(), List.of("aa"), 4, RunFixtures.catalogue(), 2, 12))
                .as("no failure, no rate; no faults recorded, and the report says an old record would not say")
                .containsPattern("\\| aa \\| 5 \\| [^|]+\\| — \\| — \\| — \\|")
                .contains("- `drill`: none on (or a record from before 2026-12-08, which does not say)");
    }

    @Test
    void aTrialSeesOnlyItsOwnRounds() {
        RunRecord a = InterleavedRun.select(drill(), "a", null);
        RunRecord part = DrillCommand.rounds(a, 4, 8, "a");
        RunRecord.Point point = part.points().stream().filter(p -> "cpu_us_per_req".equals(p.metric())).findFirst()
                .orElseThrow();
        assertThat(point.rounds()).containsExactly(4, 5, 6, 7);
        assertThat(point.values()).hasSize(4);
        assertThat(point.windows()).hasNumberOfRows(4);
    }

    /**
     * The host gauge is used by the cell's bottleneck: a trial's cell is bound as its own starts were, so a trial whose
     * starts were all service-bound does not qualify by the run's other starts (it did: it kept the run's "mixed").
     */
    @Test
    void aTrialsCellIsBoundAsItsOwnStartsWere() {
        ObjectNode raw = drill().raw().deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.path("cells")) {
            if (cell.path("variant").asText().equals("jersey--a")) {
                ((ObjectNode) cell).put("bottleneck", "mixed");
                for (int i = 0; i < cell.path("trials").size(); i++) {
                    ((ObjectNode) cell.path("trials").get(i)).put("bottleneck", i < 4 ? "database" : "service");
                }
            }
        }
        RunRecord a = InterleavedRun.select(RunFixtures.record(raw), "a", null);

        assertThat(bound(DrillCommand.rounds(a, 4, 8, "a"))).isEqualTo("service");
        assertThat(bound(DrillCommand.rounds(a, 0, 4, "a"))).isEqualTo("database");
        assertThat(bound(DrillCommand.rounds(a, 2, 6, "a"))).isEqualTo("mixed");
    }

    private static String bound(RunRecord record) {
        return record.points().stream().filter(p -> "cpu_us_per_req".equals(p.metric())).findFirst().orElseThrow()
                .bottleneck();
    }

    /** A failed start (recorded per start) has no values: a trial's cut keeps each value with its own round. */
    @Test
    void aTrialsCutSkipsTheValuesOfFailedStarts() {
        ObjectNode raw = drill().raw().deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.path("cells")) {
            if (cell.path("variant").asText().equals("jersey--a")) {
                // Round 5 failed: its trial says so and the metrics lose its value (as ResultsWriter writes it).
                ((ObjectNode) cell.path("trials").get(5)).put("status", "failed").put("reason", "crashed");
                cell.path("metrics").forEach(m -> {
                    ((com.fasterxml.jackson.databind.node.ArrayNode) m.path("values")).remove(5);
                    ((com.fasterxml.jackson.databind.node.ArrayNode) m.path("windows")).remove(5);
                });
            }
        }
        RunRecord whole = RunFixtures.record(raw);
        RunRecord a = InterleavedRun.select(whole, "a", null);
        RunRecord.Point before = a.points().stream().filter(p -> "cpu_us_per_req".equals(p.metric())).findFirst()
                .orElseThrow();
        RunRecord.Point cut = DrillCommand.rounds(a, 4, 8, "a").points().stream()
                .filter(p -> "cpu_us_per_req".equals(p.metric())).findFirst().orElseThrow();
        assertThat(cut.rounds()).containsExactly(4, 6, 7);
        // Round 6's value is the whole record's value of round 6 (index 5 there, after the failed round's removal).
        assertThat(cut.values()[1]).isEqualTo(before.values()[5]);
    }

    /** A drill run whose host changed under it says so: its trials were withheld, not powerless. */
    @Test
    void aRunWithAHostProblemSaysItsTrialsWereWithheld() {
        ObjectNode raw = drill().raw().deepCopy();
        raw.putObject("hostCheck").put("othersPct", 31.0).put("othersWhere", "jersey--cpu10/join-filter/capacity start 3")
                .putObject("limits").put("probeChangePct", 10).put("stealPct", 2).put("othersPct", 10);
        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(),
                2, 12);
        // A record without per-start utilisation has only the run's figure: every trial is withheld, and none is
        // counted in the rates as a trial that raised nothing (it read "| cpu10 | 5 | 0/5" before).
        assertThat(report).contains("- aa trial 1, aa trial 2, aa trial 3, aa trial 4, aa trial 5, cpu10 trial 1,"
                        + " cpu10 trial 2, cpu10 trial 3, cpu10 trial 4, cpu10 trial 5: verdict withheld: other work"
                        + " took 31 % of the service's core during a start (jersey cpu10/join-filter/capacity start 3)")
                .contains("| cpu10 | 0 of 5 | — | — |");
        // Allocation is not one of the host-independent counts: it was withheld too, and the report must not say
        // otherwise (it did: "the counts of work (allocation, statements) were still judged").
        assertThat(report).contains("they judged only the counts of work marked host-independent:"
                        + " response_bytes_per_req, sql_blocks_per_req, sql_rows_per_req, sql_statements_per_req,"
                        + " sql_text_bytes_per_req)")
                .doesNotContain("allocation, statements").doesNotContain("Host drift");
    }

    /**
     * Other work in one start withholds the trial that start belongs to, not every trial of the run (it did: one
     * disturbed start of the 2026-12-02 sitting withheld all twelve).
     */
    @Test
    void aDisturbedStartWithholdsOnlyItsOwnTrial() {
        ObjectNode raw = drill("drill", 8, 5, RunFixtures.FINGERPRINT).raw().deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.withArray("cells")) {
            boolean cpu10 = cell.path("variant").asText().equals("jersey--cpu10");
            for (com.fasterxml.jackson.databind.JsonNode trial : cell.path("trials")) {
                double others = cpu10 && trial.path("round").asInt() == 5 ? 0.31 : 0.02;
                ((ObjectNode) trial).putObject("utilisation").put("service", 0.9).put("others", others);
            }
        }
        raw.putObject("hostCheck").put("stealPct", 0.1).put("othersPct", 31.0)
                .put("othersWhere", "jersey--cpu10/join-filter/capacity start 6")
                .putObject("limits").put("probeChangePct", 10).put("stealPct", 2).put("othersPct", 10);

        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(),
                2, 12);

        assertThat(report).contains("| aa | 2 | ").contains("| cpu10 | 1 of 2 | ")
                .contains("- cpu10 trial 2: verdict withheld: other work took 31 % of the service's core during a start"
                        + " (jersey cpu10/join-filter/capacity start 6)\n")
                .doesNotContain("cpu10 trial 1:").doesNotContain("aa trial");
        RunRecord cut = DrillCommand.rounds(InterleavedRun.select(RunFixtures.record(raw), "cpu10", null), 0, 4,
                "cpu10");
        assertThat(cut.hostProblemWithinRounds()).isNull();
        assertThat(cut.raw().path("hostCheck").path("othersPct").asDouble()).isEqualTo(2.0);
    }

    /** A probe that moved over the run is said, and withholds nothing: each round's pairing carries a drift. */
    @Test
    void aRunWhoseHostDriftedSaysThePairingCarriesIt() {
        ObjectNode raw = drill().raw().deepCopy();
        raw.putObject("hostCheck").put("changePct", 23.1).put("othersPct", 3.0)
                .putObject("limits").put("probeChangePct", 10).put("stealPct", 2).put("othersPct", 10);
        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(),
                2, 12);
        assertThat(report).contains("**Host drift, run `drill`:** the host's calibration probe moved +23.1 %")
                .contains("withholds nothing").doesNotContain("**Host check");
    }

    /** The price of the start protocol beside its noise: wall time per start, warmups and how many were unsteady. */
    @Test
    void theReportSaysWhatAStartCost() {
        ObjectNode raw = drill().raw().deepCopy();
        var order = raw.with("plan").putArray("order");
        for (int i = 0; i < 60; i++) {
            order.addArray().add(i / 3).add("jersey--" + List.of("a", "aa", "cpu10").get(i % 3));
        }
        raw.putObject("timings").put("postgresAndDatasetS", 12.0).put("totalS", 12.0 + 60 * 95.0);
        raw.with("timings").put("measuredWindowsS", 60 * 15.0);
        raw.with("method").put("windowsPerCell", 3);
        int i = 0;
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.path("cells")) {
            for (com.fasterxml.jackson.databind.JsonNode trial : cell.path("trials")) {
                ((ObjectNode) trial).put("warmupSeconds", 20 + i % 3).put("steady", i % 20 != 0);
                i++;
            }
        }
        String report = DrillCommand.report(RunFixtures.record(raw), List.of("aa", "cpu10"), 4,
                RunFixtures.catalogue(), 2, 12);
        assertThat(report).contains("**Start cost** under profile quick: 95 s of wall time per start over 60 starts;"
                + " a cell's warmup 21 s median (20–22) over 60 cell starts, 3 of them unsteady.");
        assertThat(report).as("Kalibera & Jones at the start's measured cost, not an assumed one")
                .contains("for a start's 80 s outside its windows and 5.0 s per window in each of its cells");
        raw.with("timings").put("measuredWindowsS", 60 * 30.0);
        assertThat(DrillCommand.startAndWindowCost(List.of(RunFixtures.record(raw))))
                .as("two cells a start: a window more in each costs two windows' time, and the start's own cost less")
                .containsExactly(65.0, 10.0);
        // Three starts failed (rounds 4, 9 and 14 of copy aa): their wall time stays, they bought no window.
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.path("cells")) {
            if (cell.path("variant").asText().equals("jersey--aa")) {
                for (int round : new int[] {4, 9, 14}) {
                    RunFixtures.failStart((ObjectNode) cell, round, "fault: start failed on purpose");
                }
            }
        }
        raw.with("timings").put("measuredWindowsS", 57 * 30.0);
        assertThat(RunFixtures.record(raw).measuredStarts())
                .isEqualTo(new dev.restbench.runner.analysis.RunRecord.MeasuredStarts(57, 57, 57));
        assertThat(DrillCommand.startAndWindowCost(List.of(RunFixtures.record(raw))))
                .as("per start that measured: 60 starts' wall time less 57 starts' windows, over 57")
                .containsExactly((60 * 95.0 - 57 * 30.0) / 57, 10.0);
        assertThat(DrillCommand.startCost(List.of(RunFixtures.record(raw))))
                .contains("100 s of wall time per start over 57 starts that measured (3 more failed or did not run;"
                        + " their time is in the figure)");
        assertThat(DrillCommand.startCost(List.of(drill()))).as("no timings, no claim").isEmpty();
        assertThat(DrillCommand.report(drill(), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(), 2, 12))
                .contains("not computed: the records lack the start's wall time");
    }

    /** A start whose second cell failed paid for windows it did not get: the window cost counts cells that measured. */
    @Test
    void aCellThatFailedInsideAMeasuredStartDoesNotCheapenTheWindows() {
        ObjectNode run = RunFixtures.empty("cells", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        run.with("plan").put("rounds", 4);
        var order = run.with("plan").putArray("order");
        int[] rounds = {0, 1, 2, 3};
        for (int round : rounds) {
            order.addArray().add(round).add("jersey--a");
        }
        run.putObject("method").put("windowsPerCell", 3).put("windowSeconds", 5);
        double[][] cpu = {{300, 300, 300}, {300, 300, 300}, {300, 300, 300}, {300, 300, 300}};
        RunFixtures.cell(run, "jersey--a", "point-read", "capacity", Map.of("cpu_us_per_req", cpu), rounds);
        ObjectNode second = RunFixtures.cell(run, "jersey--a", "join-filter", "capacity",
                Map.of("cpu_us_per_req", cpu), rounds);
        RunFixtures.failStart(second, 2, "service exited");
        // 7 cells measured 3 windows of 5 s; 4 starts of 100 s each.
        run.putObject("timings").put("totalS", 400.0).put("measuredWindowsS", 7 * 3 * 5.0);

        assertThat(RunFixtures.record(run).measuredStarts())
                .isEqualTo(new dev.restbench.runner.analysis.RunRecord.MeasuredStarts(4, 8, 7));
        assertThat(DrillCommand.startAndWindowCost(List.of(RunFixtures.record(run))))
                .as("a window is 5 s, and one more in each of a start's two cells costs 10 s")
                .containsExactly((400 - 105.0) / 4, 10.0);
    }

    /** D9: the windows' trend after the warmup, the bias a weak drift rule would leave, is measured. */
    @Test
    void theReportMeasuresHowFarTheWindowsDriftedAfterTheWarmup() {
        ObjectNode run = RunFixtures.empty("drift", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        run.with("plan").put("rounds", 8);
        run.putObject("method").put("startsPerVariant", 8).put("windowsPerCell", 3).put("windowSeconds", 5);
        int[] rounds = {0, 1, 2, 3, 4, 5, 6, 7};
        Random random = new Random(9);
        for (String copy : List.of("a", "aa")) {
            double[][] cpu = new double[8][];
            double[][] alloc = new double[8][];
            for (int r = 0; r < 8; r++) {
                double level = 300 * (1 + 0.05 * random.nextGaussian());
                // Still settling: each window 5 % above the one before, as a warmup stopped too early would leave.
                cpu[r] = new double[] {level, level * 1.05 * (1 + 0.002 * random.nextGaussian()),
                        level * 1.10 * (1 + 0.002 * random.nextGaussian())};
                alloc[r] = new double[] {100_000, 100_000, 100_000};
            }
            if (copy.equals("aa")) {
                // A start with one window (the others lacked the metric) shows no trend and must not count as 0 %.
                cpu[5] = new double[] {cpu[5][0]};
            }
            RunFixtures.cell(run, "jersey--" + copy, "join-filter", "capacity",
                    Map.of("cpu_us_per_req", cpu, "alloc_bytes_per_req", alloc), rounds);
        }
        String report = DrillCommand.report(RunFixtures.record(run), List.of("aa"), 4, RunFixtures.catalogue(), 2, 12);

        assertThat(report).contains("**Residual drift after the warmup**");
        Matcher cpu = Pattern.compile("\\| jersey/join-filter/capacity/cpu_us_per_req \\| 15 \\| \\+(\\d+\\.\\d) %"
                + " \\(\\+(\\d+\\.\\d)…\\+(\\d+\\.\\d) %\\)").matcher(report);
        assertThat(cpu.find()).as(report).isTrue();
        assertThat(Double.parseDouble(cpu.group(1))).isBetween(9.8, 10.2);
        assertThat(Double.parseDouble(cpu.group(2))).isLessThan(10.0);
        assertThat(Double.parseDouble(cpu.group(3))).isGreaterThan(10.0);
        assertThat(report).contains("| jersey/join-filter/capacity/alloc_bytes_per_req | 16 | +0.0 % (+0.0…+0.0 %) |");

        // Settled starts (1 % noise per window, no trend): a mean near 0.
        Matcher settled = Pattern.compile("\\| jersey/join-filter/capacity/cpu_us_per_req \\| 40 \\| ([+-]\\d+\\.\\d) %")
                .matcher(DrillCommand.report(drill(), List.of("aa", "cpu10"), 4, RunFixtures.catalogue(), 2, 12));
        assertThat(settled.find()).isTrue();
        assertThat(Math.abs(Double.parseDouble(settled.group(1)))).isLessThan(1.5);
    }

    @Test
    void withoutAnAaCopyTheComponentsAreAsAlone() {
        String report = DrillCommand.report(drill(), List.of("cpu10"), 4, RunFixtures.catalogue(), 2, 12);
        assertThat(report).contains("copy `a` over all its starts")
                .contains("| jersey/join-filter/capacity/cpu_us_per_req | 20 × 3 | ");
    }

    /** The PR's primary series follow the default profile: variants × scenarios × the primary metrics per regime. */
    @Test
    void thePrsPrimarySeriesComeFromTheDefaultProfile(@org.junit.jupiter.api.io.TempDir java.nio.file.Path repo)
            throws Exception {
        java.nio.file.Path root = java.nio.file.Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath()
                .normalize();
        ObjectNode json = (ObjectNode) dev.restbench.runner.io.Json.MAPPER.readTree(root.resolve("benchmarks.json").toFile());
        json.remove("$schema");
        String name = json.path("defaultProfile").asText();
        ObjectNode profile = (ObjectNode) json.path("profiles").path(name);
        profile.remove("where");
        profile.putArray("variants").add("jersey").add("spring-mvc");
        profile.putArray("scenarios").add("point-read").add("mixed");
        profile.putArray("regimes").add("capacity").add("latency");
        dev.restbench.manifest.Manifest manifest = dev.restbench.runner.manifest.Manifests.parse(
                dev.restbench.runner.io.Json.MAPPER.writeValueAsString(json), "test.json");
        long perCell = manifest.metrics().stream().filter(m -> m.primaryIn("capacity")).count()
                + manifest.metrics().stream().filter(m -> m.primaryIn("latency")).count();
        assertThat(perCell).isGreaterThanOrEqualTo(2);

        assertThat(DrillCommand.prSeries(repo, manifest)).isEqualTo(2 * 2 * perCell);
    }

    /**
     * Two runs of the same drill count as one: their trials add up, and so do the starts behind the components. They
     * differ in the number of starts, so in their method hash and fingerprint, and still pool.
     */
    @Test
    void theTrialsOfSeveralRunsArePooled() {
        List<RunRecord> runs = List.of(drill("first", 12, 5, RunFixtures.FINGERPRINT),
                drill("second", 8, 6, "sha256:" + "1".repeat(64)));
        DrillCommand.checkPoolable(runs, 4);

        String report = DrillCommand.report(runs, List.of("aa", "cpu10"), 4, RunFixtures.catalogue(), 2, 12);

        assertThat(report).contains("runs `first` (12 rounds), `second` (8 rounds)")
                .contains("20 rounds of 3 copies (a, aa, cpu10), cut into 5 independent trials of 4 rounds")
                .contains("| aa | 5 | ")
                .contains("starts in every run")
                .contains("| jersey/join-filter/capacity/cpu_us_per_req | 40 × 3 | ");
        Matcher cpu = Pattern.compile("\\| cpu10 \\| 5 \\| \\d/5 = \\d+ % \\(\\d+–\\d+ %\\) \\| (\\d)/5 = ").matcher(report);
        assertThat(cpu.find()).as(report).isTrue();
        assertThat(Integer.parseInt(cpu.group(1))).isGreaterThanOrEqualTo(4);
    }

    /** Re-analysed with --from, a drill reports the kinds it ran, never a kind it did not run as 0 raised. */
    @Test
    void theKindsOfARunAreTheCopiesItHolds() {
        List<RunRecord> runs = List.of(drill("first", 8, 5, RunFixtures.FINGERPRINT));
        assertThat(DrillCommand.kindsOf(runs, null)).containsExactly("aa", "cpu10");
        assertThat(DrillCommand.kindsOf(runs, List.of("cpu10"))).containsExactly("cpu10");
        assertThatThrownBy(() -> DrillCommand.kindsOf(runs, List.of("aa", "alloc10")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run first has no copy 'alloc10' (its copies beside a: aa, cpu10)");

        ObjectNode raw = drill("second", 8, 6, RunFixtures.FINGERPRINT).raw().deepCopy();
        java.util.Iterator<com.fasterxml.jackson.databind.JsonNode> cells = raw.withArray("cells").elements();
        while (cells.hasNext()) {
            if (cells.next().path("variant").asText().equals("jersey--aa")) {
                cells.remove();
            }
        }
        List<RunRecord> mixed = List.of(runs.get(0), RunFixtures.record(raw));
        assertThatThrownBy(() -> DrillCommand.kindsOf(mixed, null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run second holds the kinds cpu10, run first aa, cpu10: name the ones to pool with --kinds");
        assertThat(DrillCommand.kindsOf(mixed, List.of("cpu10"))).containsExactly("cpu10");
    }

    @Test
    void runsOfAnotherMethodOrWithAPartTrialAreNotPooled() {
        RunRecord first = drill("first", 8, 5, RunFixtures.FINGERPRINT);
        RunRecord otherMachine = drill("machine", 8, 6, RunFixtures.FINGERPRINT);
        otherMachine.raw().with("environment").put("cpuCount", 4);
        RunRecord otherWindows = drill("windows", 8, 6, RunFixtures.FINGERPRINT);
        otherWindows.raw().with("method").put("windowSeconds", 10);
        RunRecord otherProfile = RunFixtures.record(drill("profile", 8, 6, RunFixtures.FINGERPRINT).raw()
                .put("profile", "full"));
        RunRecord partTrial = drill("part", 6, 7, RunFixtures.FINGERPRINT);
        first.raw().withArray("metricDefinitions").addObject().put("id", "cpu_us_per_req").put("minEffectPct", 5.0);
        RunRecord otherMetric = drill("metric", 8, 6, RunFixtures.FINGERPRINT);
        otherMetric.raw().withArray("metricDefinitions").addObject().put("id", "cpu_us_per_req")
                .put("minEffectPct", 5.0).put("version", 2);
        RunRecord moreMetrics = drill("more", 8, 6, RunFixtures.FINGERPRINT);
        moreMetrics.raw().withArray("metricDefinitions").addObject().put("id", "cpu_us_per_req")
                .put("minEffectPct", 3.0).put("description", "reworded");
        moreMetrics.raw().withArray("metricDefinitions").addObject().put("id", "response_bytes_per_req")
                .put("minEffectPct", 1.0);

        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, otherMachine), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run machine is not comparable with first (the environment differs)");
        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, otherWindows), 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(the method differs)");
        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, otherProfile), 4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(the profile differs)");
        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, drill("first", 8, 5,
                RunFixtures.FINGERPRINT)), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run first is given twice: its trials would count twice");
        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, otherMetric), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(metric cpu_us_per_req's definition differs)");
        // A metric the catalogue gained between two parts, another minimum effect or description: the same
        // measurement, so the parts pool for the metrics they share.
        DrillCommand.checkPoolable(List.of(first, moreMetrics), 4);
        assertThatThrownBy(() -> DrillCommand.checkPoolable(List.of(first, partTrial), 4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run part has 6 rounds, not a whole number of trials of 4");
    }

    /** A sitting of aa alone pools with one that also ran cpu10, for aa: only the pooled copies' cells must agree. */
    @Test
    void anAaSittingPoolsWithOneThatRanMoreKindsForAa() {
        RunRecord first = drill("first", 8, 5, RunFixtures.FINGERPRINT);
        ObjectNode raw = drill("second", 8, 6, RunFixtures.FINGERPRINT).raw().deepCopy();
        java.util.Iterator<com.fasterxml.jackson.databind.JsonNode> cells = raw.withArray("cells").elements();
        while (cells.hasNext()) {
            if (cells.next().path("variant").asText().equals("jersey--cpu10")) {
                cells.remove();
            }
        }
        List<RunRecord> runs = List.of(first, RunFixtures.record(raw));
        assertThatThrownBy(() -> DrillCommand.checkPoolable(runs, 4)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("(the set of cells differs)");
        DrillCommand.checkPoolable(runs, 4, List.of("aa"));
        assertThatThrownBy(() -> DrillCommand.checkPoolable(runs, 4, List.of("aa", "cpu10")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(the set of cells differs)");

        assertThat(DrillCommand.report(runs, List.of("aa"), 4, RunFixtures.catalogue(), 2, 12))
                .contains("16 rounds of 2 copies (a, aa), cut into 4 independent trials of 4 rounds")
                .contains("| jersey/join-filter/capacity/cpu_us_per_req | 32 × 3 | ");
    }

    /** A start that never got ready has no startup value: a trial's cut keeps each value with its own round. */
    @Test
    void aTrialCutsStartupValuesByTheirRounds() {
        ObjectNode raw = drill("drill", 8, 5, RunFixtures.FINGERPRINT).raw().deepCopy();
        ObjectNode startup = raw.withArray("variants").addObject().put("name", "jersey--a").putObject("startup")
                .putObject("time_to_ready_ms");
        startup.putArray("values").add(900).add(910).add(920).add(930);
        startup.putArray("rounds").add(0).add(2).add(3).add(5);

        RunRecord part = DrillCommand.rounds(RunFixtures.record(raw), 2, 4, "a");

        com.fasterxml.jackson.databind.JsonNode cut = part.raw().path("variants").get(0).path("startup")
                .path("time_to_ready_ms");
        assertThat(cut.path("values").toString()).isEqualTo("[910,920]");
        assertThat(cut.path("rounds").toString()).isEqualTo("[2,3]");
    }

    /** A trial judged on fewer primary series than its design, because a cell left one out, says so. */
    @Test
    void aPrimarySeriesACellLeftOutIsNamedPerTrial() {
        String report = reportWithAaCpuLacking(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                .put("where", "start 5, window 3 of 3").put("round", 4));

        // Start 5 is in round 5, trial 2's: trial 1 says the window lies outside its rounds rather than name it as
        // one of its own starts.
        assertThat(report).contains("**Primary series a trial could not judge**")
                .contains("- aa trial 1: cpu_us_per_req — not measured in head: start 5, window 3 of 3 (in round 5,"
                        + " outside rounds 1–4) lacks it, so the cell left it out\n")
                .contains("- aa trial 2: cpu_us_per_req — not measured in head: start 5, window 3 of 3 lacks it, so"
                        + " the cell left it out\n")
                .as("cpu10's cell lacked nothing (its red trials are listed as such, \"red by\")")
                .doesNotContainPattern("- cpu10 trial \\d+: ");
        assertThat(DrillCommand.report(List.of(drill("drill", 8, 5, RunFixtures.FINGERPRINT)), List.of("aa", "cpu10"),
                4, RunFixtures.catalogue(), 2, 12)).doesNotContain("could not judge");
    }

    /** A record older than the lacking round holds the text alone: each trial names the window as it reads. */
    @Test
    void aLackingWindowOfAnOlderRecordIsNamedAsItReads() {
        String report = reportWithAaCpuLacking(
                com.fasterxml.jackson.databind.node.TextNode.valueOf("start 5, window 3 of 3"));

        assertThat(report).contains("- aa trial 1: cpu_us_per_req — not measured in head: start 5, window 3 of 3"
                        + " lacks it, so the cell left it out\n")
                .doesNotContain("(in round");
    }

    /** The aa/cpu10 drill's report when copy aa's cell left CPU out, lacking it as {@code lacking} says. */
    private static String reportWithAaCpuLacking(com.fasterxml.jackson.databind.JsonNode lacking) {
        ObjectNode raw = drill("drill", 8, 5, RunFixtures.FINGERPRINT).raw().deepCopy();
        for (com.fasterxml.jackson.databind.JsonNode cell : raw.withArray("cells")) {
            if (cell.path("variant").asText().equals("jersey--aa")) {
                ((ObjectNode) cell.path("metrics")).remove("cpu_us_per_req");
                ((ObjectNode) cell).putObject("lacking").set("cpu_us_per_req", lacking);
            }
        }
        return DrillCommand.report(List.of(RunFixtures.record(raw)), List.of("aa", "cpu10"), 4,
                RunFixtures.catalogue(), 2, 12);
    }

    @Test
    void ratesCarryTheirWilsonInterval() {
        assertThat(DrillCommand.rate(0, 10)).isEqualTo("0/10 = 0 % (0–28 %)");
        assertThat(DrillCommand.rate(10, 10)).isEqualTo("10/10 = 100 % (72–100 %)");
    }

    @Test
    void aTrialsAdjustedSeriesIsGroupedByHowItWasJudged() {
        assertThat(DrillCommand.adjustedHow("judged relative to the host's speed: postgres_cpu_us_per_req +1.2 %"))
                .isEqualTo("relative to the host's speed");
        assertThat(DrillCommand.adjustedHow("judged as measured, not relative to postgres_cpu_us_per_req:"
                + " postgres_cpu_us_per_req moved -12.3 % against load_generator_cpu_us_per_req's +0.4 %, so its work"
                + " per request changed; could detect 30 %")).isEqualTo("as measured: postgres_cpu_us_per_req moved x %"
                + " against load_generator_cpu_us_per_req's x %, so its work per request changed");
        assertThat(DrillCommand.adjustedHow("could detect 30 %")).startsWith("as measured (the cell did not qualify");
    }
    /**
     * A host whose speed moves 20 % between starts moves the service's CPU and PostgreSQL's alike: the paired spread of
     * the series as measured is the host's, the row relative to its gauge what the relative verdict faces.
     */
    @Test
    void theAaSpreadOfAGaugedSeriesIsAlsoShownRelativeToItsGauge() {
        Random random = new Random(7);
        int roundCount = 12;
        ObjectNode run = RunFixtures.empty("drill", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        run.with("plan").put("rounds", roundCount);
        run.putObject("method").put("startsPerVariant", roundCount).put("windowsPerCell", 3).put("windowSeconds", 5);
        int[] rounds = new int[roundCount];
        for (int r = 0; r < roundCount; r++) {
            rounds[r] = r;
        }
        for (String copy : List.of("a", "aa")) {
            double[][] cpu = new double[roundCount][];
            double[][] postgres = new double[roundCount][];
            double[][] alloc = new double[roundCount][];
            for (int r = 0; r < roundCount; r++) {
                double host = Math.exp(0.20 * random.nextGaussian());
                double own = Math.exp(0.01 * random.nextGaussian());
                cpu[r] = new double[] {300 * host * own, 300 * host * own, 300 * host * own};
                postgres[r] = new double[] {200 * host, 200 * host, 200 * host};
                alloc[r] = new double[] {100_000 * own, 100_000 * own, 100_000 * own};
            }
            RunFixtures.cell(run, "jersey--" + copy, "join-filter", "capacity", Map.of("cpu_us_per_req", cpu,
                    "postgres_cpu_us_per_req", postgres, "alloc_bytes_per_req", alloc), rounds);
        }
        String report = DrillCommand.report(RunFixtures.record(run), List.of("aa"), 4, RunFixtures.catalogue(), 2, 12);

        Matcher measured = Pattern.compile("\\| jersey/join-filter/capacity/cpu_us_per_req \\| 12 \\| ([0-9.]+) %")
                .matcher(report);
        Matcher relative = Pattern.compile("\\| jersey/join-filter/capacity/cpu_us_per_req relative to"
                + " postgres_cpu_us_per_req \\| 12 \\| ([0-9.]+) %").matcher(report);
        assertThat(measured.find()).as(report).isTrue();
        assertThat(relative.find()).as(report).isTrue();
        assertThat(Double.parseDouble(measured.group(1))).isGreaterThan(15);
        assertThat(Double.parseDouble(relative.group(1))).isLessThan(3);
        assertThat(report).as("a series with no gauge has one row")
                .contains("| jersey/join-filter/capacity/alloc_bytes_per_req | 12 |")
                .doesNotContain("alloc_bytes_per_req relative");
        // Beside each spread, how often it lets a trial of this drill (4 rounds, its cell's 2 primary series) find
        // +10 %: the simulated rate an observed cpu10 rate is set against.
        assertThat(report).contains("| detects +10 % in a trial of 4 rounds, 2 series |");
        Pattern trial = Pattern.compile("%\\) \\| ([0-9.]+) % \\(([0-9.]+) %–([0-9.]+) %\\) \\|");
        Matcher measuredTrial = trial.matcher(report.substring(measured.start()));
        Matcher relativeTrial = trial.matcher(report.substring(relative.start()));
        assertThat(measuredTrial.find()).as(report).isTrue();
        assertThat(relativeTrial.find()).as(report).isTrue();
        assertThat(Double.parseDouble(measuredTrial.group(1))).isLessThan(30);
        assertThat(Double.parseDouble(relativeTrial.group(1))).isGreaterThan(95);
        assertThat(Double.parseDouble(measuredTrial.group(2)))
                .isLessThanOrEqualTo(Double.parseDouble(measuredTrial.group(3)));
    }
}
