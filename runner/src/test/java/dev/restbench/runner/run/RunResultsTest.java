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

    private static RunResults.TrialResult notBegun(int round) {
        return new RunResults.TrialResult(round, round,
                CellSession.Outcome.notMeasured("budget: not started, 3 min before the run's deadline"));
    }

    /** A cell none of whose starts was begun (no runtime here, no budget left) is not measured: not failed. */
    @Test
    void aCellNeverBegunIsNotMeasuredNotFailedUnderEitherPolicy() {
        for (RunOptions.FailedStarts policy : RunOptions.FailedStarts.values()) {
            RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(notBegun(0), notBegun(1)), 2, policy);
            assertThat(cell.ok()).isFalse();
            assertThat(cell.notMeasured()).isTrue();
            assertThat(cell.failed()).isFalse();
            assertThat(cell.status()).isEqualTo("not-measured");
            assertThat(cell.reason()).isEqualTo("budget: not started, 3 min before the run's deadline");
            assertThat(cell.metrics()).isEmpty();
        }
        // The run's status: a cell not measured fails nothing, but a run that measured nothing is no result.
        RunResults.CellSummary skipped = RunResults.summarize(KEY, List.of(notBegun(0)), 1,
                RunOptions.FailedStarts.FAIL_THE_CELL);
        RunResults.CellSummary ok = RunResults.summarize(KEY, List.of(measured(0, 100)), 1,
                RunOptions.FailedStarts.FAIL_THE_CELL);
        RunResults.CellSummary failed = RunResults.summarize(KEY, List.of(failed(0)), 1,
                RunOptions.FailedStarts.FAIL_THE_CELL);
        assertThat(ResultsWriter.runStatus(List.of(ok, skipped))).isEqualTo("ok");
        assertThat(ResultsWriter.runStatus(List.of(skipped))).isEqualTo("failed");
        assertThat(ResultsWriter.runStatus(List.of(ok, skipped, failed))).isEqualTo("failed");
    }

    /**
     * A start left out of a cell whose other starts measured (the budget ran out after them) keeps their figures
     * even where one failed start fails the cell: nothing was tried, so nothing failed.
     */
    @Test
    void aStartNeverBegunLeavesTheOthersFiguresAndIsNamed() {
        RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(measured(0, 100), measured(1, 110), notBegun(2)),
                3, RunOptions.FailedStarts.FAIL_THE_CELL);
        assertThat(cell.ok()).isTrue();
        assertThat(cell.values().get("cpu_us_per_req")).hasSize(2);
        assertThat(cell.reason()).isEqualTo("1 of 3 starts not measured, first start 3: budget: not started, 3 min"
                + " before the run's deadline");

        RunResults.CellSummary withFailure = RunResults.summarize(KEY, List.of(measured(0, 100), failed(1), notBegun(2)),
                3, RunOptions.FailedStarts.FAIL_THE_CELL);
        assertThat(withFailure.failed()).as("a failed start still fails a published cell").isTrue();
        assertThat(withFailure.reason()).isEqualTo("start 2: did not become ready");
    }

    private static RunResults.TrialResult measured(int round, List<Map<String, Double>> windows) {
        List<CellSession.Window> list = windows.stream().map(m -> new CellSession.Window(0, 5, m, null)).toList();
        return new RunResults.TrialResult(round, round,
                new CellSession.Outcome(true, null, 30, true, null, list, null, Map.of(), "r", null));
    }

    /**
     * A metric one window lacks is left out of the cell (values over different starts would mislead), and the cell
     * names it with the window, where it used to vanish unseen; one that only the first window lacks too (the keys
     * used to be the first window's).
     */
    @Test
    void aMetricAWindowLacksIsLeftOutAndNamed() {
        Map<String, Double> full = Map.of("throughput", 1000.0, "cpu_us_per_req", 100.0, "alloc_bytes_per_req", 5e4);
        Map<String, Double> noCpu = Map.of("throughput", 1000.0, "alloc_bytes_per_req", 5e4);
        Map<String, Double> noAlloc = Map.of("throughput", 1000.0, "cpu_us_per_req", 100.0);
        RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(
                measured(0, List.of(noAlloc, full, full)),
                measured(1, List.of(full, full, noCpu))), 2, RunOptions.FailedStarts.FAIL_THE_CELL);

        assertThat(cell.ok()).isTrue();
        assertThat(cell.metrics()).containsKey("throughput").doesNotContainKeys("cpu_us_per_req", "alloc_bytes_per_req");
        assertThat(cell.lacking()).containsExactly(
                Map.entry("alloc_bytes_per_req", new RunResults.Lacking("start 1, window 1 of 3", 0)),
                Map.entry("cpu_us_per_req", new RunResults.Lacking("start 2, window 3 of 3", 1)));
    }

    /** A meter that no window has (the runtime lacks it) is absent, not "left out". */
    @Test
    void aMeterNoWindowHasIsNotLeftOut() {
        Map<String, Double> window = Map.of("throughput", 1000.0);
        RunResults.CellSummary cell = RunResults.summarize(KEY, List.of(measured(0, List.of(window, window))), 1,
                RunOptions.FailedStarts.FAIL_THE_CELL);
        assertThat(cell.lacking()).isEmpty();
        assertThat(cell.metrics()).containsOnlyKeys("throughput", RunResults.WARMUP);
    }
}
