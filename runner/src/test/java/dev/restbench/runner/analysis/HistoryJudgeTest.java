package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A single run against the history: a verdict only from ≥ 10 comparable past runs. */
class HistoryJudgeTest {

    private static RunRecord run(int day, double cpu, String fingerprint) {
        ObjectNode run = RunFixtures.empty(String.format("202611%02dT000000Z-c%02d", day, day), "c" + day,
                String.format("2026-11-%02dT00:00:00Z", day), fingerprint, "quick");
        RunFixtures.cell(run, "jersey", "join-filter", "capacity", Map.of("cpu_us_per_req",
                new double[][] {{cpu, cpu}}), new int[] {0});
        return RunFixtures.record(run);
    }

    private static List<RunRecord> history(int runs, double noise, long seed) {
        Random random = new Random(seed);
        List<RunRecord> history = new ArrayList<>();
        for (int day = 1; day <= runs; day++) {
            history.add(run(day, 300 * (1 + noise * random.nextGaussian()), RunFixtures.FINGERPRINT));
        }
        return history;
    }

    private static RunRecord runOf(int day, double cpu, double alloc, double statements, boolean withRules) {
        ObjectNode run = RunFixtures.empty(String.format("202611%02dT000000Z-c%02d", day, day), "c" + day,
                String.format("2026-11-%02dT00:00:00Z", day), RunFixtures.FINGERPRINT, "quick");
        RunFixtures.cell(run, "jersey", "join-filter", "capacity", Map.of("cpu_us_per_req", new double[][] {{cpu}},
                "req_per_cpu_s", new double[][] {{1e6 / cpu}}, "alloc_bytes_per_req", new double[][] {{alloc}},
                "sql_statements_per_req", new double[][] {{statements}}), new int[] {0});
        if (withRules) {
            var definitions = run.putArray("metricDefinitions");
            definitions.addObject().put("id", "cpu_us_per_req").put("minEffectPct", 5);
            definitions.addObject().put("id", "req_per_cpu_s").put("reciprocalOf", "cpu_us_per_req");
            definitions.addObject().put("id", "alloc_bytes_per_req").put("minEffectPct", 1);
            definitions.addObject().put("id", "sql_statements_per_req").put("minEffectPct", 2)
                    .put("hostIndependent", true);
        }
        return RunFixtures.record(run);
    }

    /** A run of jersey's join-filter CPU per request, one value per start (one window each). */
    private static RunRecord runOfStarts(int day, double... starts) {
        ObjectNode run = RunFixtures.empty(String.format("202611%02dT000000Z-c%02d", day, day), "c" + day,
                String.format("2026-11-%02dT00:00:00Z", day), RunFixtures.FINGERPRINT, "quick");
        double[][] windows = new double[starts.length][];
        int[] rounds = new int[starts.length];
        for (int i = 0; i < starts.length; i++) {
            windows[i] = new double[] {starts[i]};
            rounds[i] = i;
        }
        RunFixtures.cell(run, "jersey", "join-filter", "capacity", Map.of("cpu_us_per_req", windows), rounds);
        return RunFixtures.record(run);
    }

    /**
     * A run that measured fewer starts than the past runs (a profile of three starts whose budget left two out) is
     * noisier than they were: judged as one of them, +6.5 % is a regression; its interval is widened (K/k, the bound
     * of PredictionInterval), so the same +6.5 % from one start is not, and the row says why.
     */
    @Test
    void aRunWithFewerStartsThanTheHistoryGetsAWiderInterval() {
        List<RunRecord> history = new ArrayList<>();
        for (int day = 1; day <= 20; day++) {
            double level = 300 * (day % 2 == 0 ? 1.023 : 1 / 1.023);
            history.add(runOfStarts(day, level * 1.04, level, level / 1.04));
        }
        double value = 300 * 1.065;
        SeriesVerdict three = HistoryJudge.judge(history, runOfStarts(21, value, value, value), 30, 0.05,
                MetricRules.uniform(5)).rows().get(0);
        SeriesVerdict one = HistoryJudge.judge(history, runOfStarts(21, value), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);

        assertThat(three.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(three.reason()).doesNotContain("widened");
        assertThat(one.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(one.reason()).startsWith("this run measured 1 start(s), the past runs 3 on average: the interval"
                + " is widened for it");
        assertThat(one.highPct() - one.lowPct()).isGreaterThan(1.6 * (three.highPct() - three.lowPct()));

        // Past runs of 1 and 3 starts alike: their spread is that of 1.5 starts (the harmonic mean), so a 1-start
        // run widens by √(1.5 + 1/n) / √(1 + 1/n), not by the 3-start runs' √3; runs of the head's own kind do not.
        List<RunRecord> mixed = new ArrayList<>();
        for (int day = 1; day <= 20; day++) {
            double level = 300 * (day % 2 == 0 ? 1.023 : 1 / 1.023);
            mixed.add(day % 4 < 2 ? runOfStarts(day, level) : runOfStarts(day, level * 1.04, level, level / 1.04));
        }
        SeriesVerdict fromMixed = HistoryJudge.judge(mixed, runOfStarts(21, value), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(fromMixed.reason()).startsWith("this run measured 1 start(s), the past runs 1.5 on average:");
        List<RunRecord> single = new ArrayList<>();
        for (int day = 1; day <= 20; day++) {
            single.add(runOfStarts(day, 300 * (day % 2 == 0 ? 1.023 : 1 / 1.023)));
        }
        SeriesVerdict fromSingle = HistoryJudge.judge(single, runOfStarts(21, value), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(fromSingle.reason()).doesNotContain("widened");
        assertThat(fromSingle.verdict()).isEqualTo(Verdict.REGRESSION);
    }

    /**
     * Review D6/D7 in the history too: the head run's own rules (run.json metricDefinitions) — a reciprocal shown
     * beside its source, never judged a second time; allocation at its 1 % minimum effect, where one 5 % for every
     * metric called a +2.5 % allocation step "no change"; SQL counts judged even when the host check withholds
     * the timings.
     */
    @Test
    void eachRunIsJudgedWithTheRulesItWasMeasuredUnder() {
        Random random = new Random(5);
        List<RunRecord> history = new ArrayList<>();
        for (int day = 1; day <= 20; day++) {
            history.add(runOf(day, 300 * (1 + 0.01 * random.nextGaussian()),
                    50_000 * (1 + 0.002 * random.nextGaussian()), 2.0 * (1 + 0.001 * random.nextGaussian()), true));
        }
        RunRecord head = runOf(21, 400, 51_250, 2.0, true);
        Judgement judgement = HistoryJudge.judge(history, head, 30, 0.05,
                MetricRules.ofRecord(head, 5));
        Map<String, SeriesVerdict> rows = new java.util.HashMap<>();
        judgement.rows().forEach(r -> rows.put(r.metric(), r));
        assertThat(rows.get("cpu_us_per_req").verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(rows.get("req_per_cpu_s").verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(rows.get("req_per_cpu_s").reason()).isEqualTo("shown only: the reciprocal of cpu_us_per_req,"
                + " judged there");
        assertThat(rows.get("alloc_bytes_per_req").verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(rows.get("sql_statements_per_req").verdict()).isEqualTo(Verdict.NO_CHANGE);
        SeriesVerdict uniform = HistoryJudge.judge(history, head, 30, 0.05, MetricRules.uniform(5)).rows().stream()
                .filter(r -> r.metric().equals("alloc_bytes_per_req")).findFirst().orElseThrow();
        assertThat(uniform.verdict()).isEqualTo(Verdict.NO_CHANGE);

        // A record without the rules (older than them) is judged as before: one minimum effect, every metric.
        RunRecord old = runOf(21, 400, 51_250, 2.0, false);
        assertThat(MetricRules.ofRecord(old, 5).describe()).isEqualTo("5 %");

        // The host check withheld the run: the timings are not judged, the SQL count still is.
        RunRecord nPlusOne = runOf(21, 400, 51_250, 22.0, true);
        ((ObjectNode) nPlusOne.raw()).putObject("hostCheck").put("changePct", 0.0).put("stealPct", 0.0)
                .put("othersPct", 30.0).put("othersWhere", "jersey/join-filter/capacity start 1")
                .putObject("limits").put("probeChangePct", 10).put("stealPct", 2).put("othersPct", 10);
        RunRecord withheldHead = RunFixtures.record((ObjectNode) nPlusOne.raw());
        Judgement withheld = HistoryJudge.judge(history, withheldHead, 30, 0.05,
                MetricRules.ofRecord(withheldHead, 5));
        assertThat(withheld.rows()).filteredOn(r -> r.metric().equals("sql_statements_per_req"))
                .extracting(SeriesVerdict::verdict).containsExactly(Verdict.REGRESSION);
        assertThat(withheld.rows()).filteredOn(r -> r.metric().equals("cpu_us_per_req"))
                .extracting(SeriesVerdict::verdict).containsExactly(Verdict.NOT_COMPARABLE);
        assertThat(withheld.status()).isEqualTo(Judgement.Status.REGRESSION);
    }

    /**
     * The per-metric rules as coded, simulated: allocation per request at its 1 % minimum effect, 0.36 % noise per
     * run (the quick profile's), 30-run histories with cpu, req_per_cpu_s, alloc and SQL series in one cell. Under no
     * change, how often is allocation called a regression; with a +2 % / +1.5 % step in the judged run, how often is
     * it found (one 5 % for every metric found neither).
     */
    @Test
    void allocationAtItsOwnMinimumEffectSimulatedAsCoded() {
        Random random = new Random(91);
        int reps = 400;
        int[] red = new int[3];
        for (int rep = 0; rep < reps; rep++) {
            List<RunRecord> history = new ArrayList<>();
            for (int day = 1; day <= 30; day++) {
                history.add(runOf(day, 300 * (1 + 0.059 * random.nextGaussian()),
                        50_000 * (1 + 0.0036 * random.nextGaussian()), 2.0 * (1 + 0.001 * random.nextGaussian()), true));
            }
            double[] steps = {1.0, 1.02, 1.015};
            for (int k = 0; k < steps.length; k++) {
                RunRecord head = runOf(31, 300 * (1 + 0.059 * random.nextGaussian()),
                        50_000 * steps[k] * (1 + 0.0036 * random.nextGaussian()), 2.0, true);
                red[k] += HistoryJudge.judge(history, head, 30, 0.05, MetricRules.ofRecord(head, 5)).rows().stream()
                        .anyMatch(r -> r.metric().equals("alloc_bytes_per_req") && r.verdict() == Verdict.REGRESSION)
                        ? 1 : 0;
            }
        }
        System.out.printf(java.util.Locale.ROOT, "SIM history alloc 1 %% | A/A red %d/%d, +2 %% red %d/%d, +1.5 %% red"
                + " %d/%d%n", red[0], reps, red[1], reps, red[2], reps);
        assertThat(red[0] / (double) reps).as("false regressions of allocation").isLessThanOrEqualTo(0.05);
        assertThat(red[1] / (double) reps).as("+2 % found").isGreaterThan(0.9);
    }

    @Test
    void withFewerThanTenComparableRunsThereIsNoVerdictOnlyTheNumber() {
        List<RunRecord> history = history(9, 0.01, 1);
        Judgement judgement = HistoryJudge.judge(history, run(28, 400, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5));
        SeriesVerdict row = judgement.rows().get(0);
        assertThat(row.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(row.reason()).isEqualTo("9 comparable past run(s), a verdict needs 10");
        assertThat(row.changePct()).isPositive(); // the number is still shown
        assertThat(judgement.status()).isEqualTo(Judgement.Status.NO_VERDICT);
    }

    @Test
    void runsOfAnotherEnvironmentDoNotCount() {
        List<RunRecord> history = new ArrayList<>();
        for (int day = 1; day <= 12; day++) {
            history.add(run(day, 300, "sha256:other"));
        }
        assertThat(HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5)).rows().get(0)
                .verdict()).isEqualTo(Verdict.NO_VERDICT);
    }

    @Test
    void anEightPercentStepOverTwelveQuietRunsIsARegressionAndAnUnchangedRunIsNoChange() {
        List<RunRecord> history = history(12, 0.01, 2);
        SeriesVerdict slower = HistoryJudge.judge(history, run(28, 324, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(slower.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(slower.n()).isEqualTo(12);
        SeriesVerdict same = HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(same.verdict()).isEqualTo(Verdict.NO_CHANGE);
    }

    /**
     * D4: a +8 % step merged k runs before the judged one, which sits at the new level (nothing changed since). Over
     * the whole window the step was flagged again and again, and then blinded the series to a second step; cut at the
     * newest change point (≥ 10 runs after it for a verdict), it is not. Noise per run as the quick profile's one start
     * of jersey's CPU per request (5.9 %: 5.5 % between starts, 3.9 % within over 3 windows) and of its allocation
     * (0.36 %), one series (no correction). The gaps: a step one run ago (two points at the new level, the judged
     * one included) is no change point yet, so it is flagged once more; and CPU's noise hides an 8 % step from the
     * change points often, so there the re-flagging only falls (18 → 12 % two runs after), and a second step is found
     * less often than the mixed window pretended to (it counted the first step again).
     */
    @Test
    void aStepTheHistoryHoldsIsNotFlaggedAgainAndDoesNotBlindTheSeries() {
        for (double noise : new double[] {0.059, 0.0036}) {
            for (int k : new int[] {1, 2, 3, 5, 10}) {
                int[] counts = stepRates(noise, k, 1.0, 400 + k);
                System.out.printf(java.util.Locale.ROOT, "SIM D4 | noise %.2f %%, +8 %% step %2d run(s) ago, judged at"
                                + " the new level: re-flagged %5.1f %% before, %5.1f %% now (no verdict now %5.1f %%)%n",
                        100 * noise, k, counts[0] / 4.0, counts[1] / 4.0, counts[2] / 4.0);
                if (k >= 2) {
                    assertThat(counts[1]).as("re-flagged now vs before, noise %s, k %d", noise, k)
                            .isLessThanOrEqualTo(counts[0]);
                }
                if (noise < 0.01 && k >= 2 && k <= 5) {
                    assertThat(counts[0]).as("before, allocation, k %d", k).isGreaterThan(300);
                    assertThat(counts[1]).as("now, allocation, k %d", k).isLessThanOrEqualTo(20);
                }
            }
            for (int k : new int[] {10, 20}) {
                int[] second = stepRates(noise, k, 1.08, 499 + k);
                System.out.printf(java.util.Locale.ROOT, "SIM D4 | noise %.2f %%, a second +8 %% step %d runs after"
                                + " the first: detected %5.1f %% before, %5.1f %% now%n", 100 * noise, k,
                        second[0] / 4.0, second[1] / 4.0);
                if (noise < 0.01) {
                    assertThat(second[1]).isGreaterThan(390);
                }
            }
        }
    }

    /**
     * Over 400 seeded series: [regressions under the old rule (the prediction interval over all 30 runs),
     * regressions now, no verdict now]. The judged run is at the new level × {@code again}.
     */
    private static int[] stepRates(double noise, int k, double again, long seed) {
        Random random = new Random(seed);
        int[] counts = new int[3];
        for (int i = 0; i < 400; i++) {
            List<RunRecord> history = new ArrayList<>();
            double[] values = new double[30];
            for (int day = 1; day <= 30; day++) {
                values[day - 1] = 300 * (day > 30 - k ? 1.08 : 1) * Math.exp(noise * random.nextGaussian());
                history.add(run(day, values[day - 1], RunFixtures.FINGERPRINT));
            }
            double value = 300 * 1.08 * again * Math.exp(noise * random.nextGaussian());
            var old = dev.restbench.runner.stats.PredictionInterval.judge(values, value, 0.9);
            counts[0] += old.pValue() <= 0.05 && old.deviationPct() >= 5 ? 1 : 0;
            SeriesVerdict row = HistoryJudge.judge(history, run(31, value, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5))
                    .rows().get(0);
            counts[1] += row.verdict() == Verdict.REGRESSION ? 1 : 0;
            counts[2] += row.verdict() == Verdict.NO_VERDICT ? 1 : 0;
        }
        return counts;
    }

    @Test
    void aStepTwelveRunsAgoStartsTheBaselineAndAFewRunsAgoGivesNoVerdict() {
        List<RunRecord> history = new ArrayList<>();
        Random random = new Random(5);
        for (int day = 1; day <= 24; day++) {
            history.add(run(day, (day > 12 ? 324 : 300) * (1 + 0.005 * random.nextGaussian()), RunFixtures.FINGERPRINT));
        }
        SeriesVerdict settled = HistoryJudge.judge(history, run(31, 324, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(settled.n()).isEqualTo(12);
        assertThat(settled.verdict()).isEqualTo(Verdict.NO_CHANGE);
        SeriesVerdict recent = HistoryJudge.judge(history.subList(0, 17), run(31, 324, RunFixtures.FINGERPRINT), 30,
                0.05, MetricRules.uniform(5)).rows().get(0);
        assertThat(recent.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(recent.reason()).isEqualTo("a step 5 run(s) ago (+8.0 %): 5 comparable run(s) since, a verdict"
                + " needs 10");
    }

    @Test
    void noisyHistoryCannotProveNoChange() {
        List<RunRecord> history = history(12, 0.08, 3);
        SeriesVerdict row = HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, MetricRules.uniform(5))
                .rows().get(0);
        assertThat(row.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void aCellThatFailedWhereTheNewestComparableRunWorkedIsAFailure() {
        List<RunRecord> history = history(3, 0.01, 4);
        ObjectNode head = RunFixtures.empty("20261128T000000Z-c28", "c28", "2026-11-28T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick");
        RunFixtures.failedCell(head, "jersey", "join-filter", "capacity", "start 1: service exited with code 137");
        Judgement judgement = HistoryJudge.judge(history, RunFixtures.record(head), 30, 0.05, MetricRules.uniform(5));
        assertThat(judgement.rows()).singleElement()
                .satisfies(row -> assertThat(row.verdict()).isEqualTo(Verdict.FAILED));
        assertThat(judgement.status()).isEqualTo(Judgement.Status.REGRESSION);
    }

    /**
     * A cell never begun (the budget ran out before its start, or the runner lacks its runtime) is not a failure:
     * no verdict, and the reason, where it used to read "failed, worked in …" and turn the run red.
     */
    @Test
    void aCellNotMeasuredWhereTheNewestComparableRunWorkedIsNoFailure() {
        List<RunRecord> history = history(3, 0.01, 4);
        ObjectNode head = RunFixtures.empty("20261128T000000Z-c28", "c28", "2026-11-28T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick");
        RunFixtures.notMeasuredCell(head, "jersey", "join-filter", "capacity",
                "budget: not started, 4 min before the run's deadline, and a start can take 9 min (--budget-minutes)");
        Judgement judgement = HistoryJudge.judge(history, RunFixtures.record(head), 30, 0.05, MetricRules.uniform(5));
        assertThat(judgement.rows()).singleElement().satisfies(row -> {
            assertThat(row.verdict()).isEqualTo(Verdict.NO_VERDICT);
            assertThat(row.reason()).isEqualTo("not measured: budget: not started, 4 min before the run's deadline,"
                    + " and a start can take 9 min (--budget-minutes)");
        });
        assertThat(judgement.status()).isNotEqualTo(Judgement.Status.REGRESSION);

        // Nor does a run that did not measure the cell vouch for it: a failure after it is not "worked in" that run.
        List<RunRecord> withGap = new ArrayList<>(history);
        withGap.add(RunFixtures.record(head));
        ObjectNode failing = RunFixtures.empty("20261129T000000Z-c29", "c29", "2026-11-29T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick");
        RunFixtures.failedCell(failing, "jersey", "join-filter", "capacity", "start 1: service exited with code 137");
        assertThat(HistoryJudge.judge(withGap, RunFixtures.record(failing), 30, 0.05, MetricRules.uniform(5)).rows())
                .singleElement().satisfies(row -> {
                    assertThat(row.verdict()).isEqualTo(Verdict.NO_VERDICT);
                    assertThat(row.reason()).isEqualTo("failed: start 1: service exited with code 137");
                });
    }
}
