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

    @Test
    void withFewerThanTenComparableRunsThereIsNoVerdictOnlyTheNumber() {
        List<RunRecord> history = history(9, 0.01, 1);
        Judgement judgement = HistoryJudge.judge(history, run(28, 400, RunFixtures.FINGERPRINT), 30, 0.05, 5);
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
        assertThat(HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, 5).rows().get(0)
                .verdict()).isEqualTo(Verdict.NO_VERDICT);
    }

    @Test
    void anEightPercentStepOverTwelveQuietRunsIsARegressionAndAnUnchangedRunIsNoChange() {
        List<RunRecord> history = history(12, 0.01, 2);
        SeriesVerdict slower = HistoryJudge.judge(history, run(28, 324, RunFixtures.FINGERPRINT), 30, 0.05, 5)
                .rows().get(0);
        assertThat(slower.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(slower.n()).isEqualTo(12);
        SeriesVerdict same = HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, 5)
                .rows().get(0);
        assertThat(same.verdict()).isEqualTo(Verdict.NO_CHANGE);
    }

    @Test
    void noisyHistoryCannotProveNoChange() {
        List<RunRecord> history = history(12, 0.08, 3);
        SeriesVerdict row = HistoryJudge.judge(history, run(28, 300, RunFixtures.FINGERPRINT), 30, 0.05, 5)
                .rows().get(0);
        assertThat(row.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void aCellThatFailedWhereTheNewestComparableRunWorkedIsAFailure() {
        List<RunRecord> history = history(3, 0.01, 4);
        ObjectNode head = RunFixtures.empty("20261128T000000Z-c28", "c28", "2026-11-28T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick");
        RunFixtures.failedCell(head, "jersey", "join-filter", "capacity", "start 1: service exited with code 137");
        Judgement judgement = HistoryJudge.judge(history, RunFixtures.record(head), 30, 0.05, 5);
        assertThat(judgement.rows()).singleElement()
                .satisfies(row -> assertThat(row.verdict()).isEqualTo(Verdict.FAILED));
        assertThat(judgement.status()).isEqualTo(Judgement.Status.REGRESSION);
    }
}
