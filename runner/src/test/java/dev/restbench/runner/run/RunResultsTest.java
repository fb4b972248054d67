package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What a failed start does to its cell: fail it (a published run), or leave the other starts' figures (an A/B). */
class RunResultsTest {

    private static final RunResults.CellKey KEY = new RunResults.CellKey("jersey--head", "read-heavy", "capacity");

    private static RunResults.TrialResult measured(int round, double cpu) {
        List<CellSession.Window> windows = List.of(new CellSession.Window(0, 5, Map.of("cpu_us_per_req", cpu), null));
        return new RunResults.TrialResult(round, round,
                new CellSession.Outcome(true, null, 30, true, null, windows, null, Map.of(), "r", null));
    }

    private static RunResults.TrialResult failed(int round) {
        return new RunResults.TrialResult(round, round,
                CellSession.Outcome.failed("did not become ready", 0, null));
    }

    @Test
    void aPublishedRunNeverComputesAFigureFromTheStartsThatWentWell() {
        RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(measured(0, 100), failed(1), measured(2, 110)),
                3, RunOptions.FailedStarts.FAIL_THE_CELL);
        assertThat(cell.ok()).isFalse();
        assertThat(cell.reason()).isEqualTo("start 2: did not become ready");
        assertThat(cell.metrics()).isEmpty();
    }

    @Test
    void anAbKeepsTheOtherStartsFiguresAndSaysWhichFailed() {
        RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(measured(0, 100), failed(1), measured(2, 110)),
                3, RunOptions.FailedStarts.RECORDED_PER_START);
        assertThat(cell.ok()).isTrue();
        assertThat(cell.values().get("cpu_us_per_req")).hasSize(2).satisfies(v -> {
            assertThat(v.get(0)).isCloseTo(100.0, org.assertj.core.api.Assertions.within(1e-9));
            assertThat(v.get(1)).isCloseTo(110.0, org.assertj.core.api.Assertions.within(1e-9));
        });
        assertThat(cell.reason()).isEqualTo("1 of 3 starts failed, first start 2: did not become ready");
        assertThat(cell.steady()).isTrue(); // the failed start has no windows to be unsteady in
    }

    @Test
    void aCellWhoseEveryStartFailedFailsUnderEitherPolicy() {
        for (RunOptions.FailedStarts policy : RunOptions.FailedStarts.values()) {
            RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(failed(0), failed(1)), 2, policy);
            assertThat(cell.ok()).isFalse();
            assertThat(cell.metrics()).isEmpty();
        }
    }
}
