package dev.restbench.runner.run;

import dev.restbench.gatling.results.SimulationLog;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check after the windows: compilers busy again over the windows of a settled warmup call for one re-measure, and
 * make the cell unsteady, with the reason, when they are busy in it too.
 */
class CellSessionTest {

    private static CellSession.Window window(Double jitMsPerS) {
        return new CellSession.Window(0, 5.0, jitMsPerS == null ? Map.of("throughput", 100.0)
                : Map.of("throughput", 100.0, "jit_cpu_ms_per_s", jitMsPerS), null);
    }

    @Test
    void compilersWithinTheBoundOverTheWindowsKeepTheCellSteady() {
        assertThat(CellSession.busyCompilers(List.of(window(12.0), window(30.0), window(0.0)), 30)).isNull();
        // One burst the warmup's rule (a mean over its stable span) would let pass does not fail the windows alone.
        assertThat(CellSession.busyCompilers(List.of(window(1.0), window(11.0), window(43.0)), 30)).isNull();
    }

    @Test
    void busyCompilersOverTheWindowsNameTheWorstWindow() {
        // The first window of jersey point-read in run 20261123T120659Z: 165, 117, 14 ms/s after a settled warmup.
        assertThat(CellSession.busyCompilers(List.of(window(165.0), window(117.0), window(14.0)), 30))
                .isEqualTo("JIT compilers 99 ms/s > 30 over the windows (165 in window 1 of 3; the warmup had settled)");
        assertThat(CellSession.busyCompilers(List.of(window(5.0), window(70.0)), 30)).contains("(70 in window 2 of 2");
    }

    @Test
    void aRuntimeWithoutCompilerThreadsIsNotJudgedOnThem() {
        assertThat(CellSession.busyCompilers(List.of(window(null), window(null)), 30)).isNull();
    }
    private static final SteadyState.Verdict SETTLED = new SteadyState.Verdict(true, null);
    private static final SteadyState.Verdict AT_THE_CAP = new SteadyState.Verdict(false, "JIT compilers 83 ms/s > 30");
    private static final List<CellSession.Window> BUSY = List.of(window(165.0), window(117.0), window(14.0));
    private static final List<CellSession.Window> QUIET = List.of(window(4.0), window(2.0), window(1.0));

    @Test
    void busyCompilersAfterASettledWarmupCallForARemeasure() {
        assertThat(CellSession.afterWindows(SETTLED, BUSY, 30, 0)).isEqualTo(new CellSession.AfterWindows(true,
                "JIT compilers 99 ms/s > 30 over the windows (165 in window 1 of 3; the warmup had settled)"));
        assertThat(CellSession.afterWindows(SETTLED, QUIET, 30, 0))
                .isEqualTo(new CellSession.AfterWindows(false, null));
    }

    @Test
    void aWarmupAtItsCapIsUnsteadyAsItIsWithoutARemeasure() {
        // The re-measure is for a late burst after a settled warmup; a warmup that never settled is unsteady as before.
        assertThat(CellSession.afterWindows(AT_THE_CAP, BUSY, 30, 0))
                .isEqualTo(new CellSession.AfterWindows(false, "JIT compilers 83 ms/s > 30"));
        assertThat(CellSession.afterWindows(AT_THE_CAP, QUIET, 30, 0))
                .isEqualTo(new CellSession.AfterWindows(false, "JIT compilers 83 ms/s > 30"));
    }

    @Test
    void aQuietRemeasureIsSteady() {
        assertThat(CellSession.afterWindows(SETTLED, QUIET, 30, 1))
                .isEqualTo(new CellSession.AfterWindows(false, null));
    }

    @Test
    void oneRemeasureAtMostAndTheReasonSaysItWasMade() {
        assertThat(CellSession.afterWindows(SETTLED, BUSY, 30, 1)).isEqualTo(new CellSession.AfterWindows(false,
                "JIT compilers 99 ms/s > 30 over the windows (165 in window 1 of 3; the warmup had settled),"
                        + " after one re-measure"));
        // The resumed warmup at its cap: unsteady, and the re-measure is named.
        assertThat(CellSession.afterWindows(AT_THE_CAP, QUIET, 30, 1)).isEqualTo(new CellSession.AfterWindows(false,
                "JIT compilers 83 ms/s > 30, after one re-measure"));
    }

    @Test
    void aRuntimeWithoutCompilerReadingsIsNeverRemeasured() {
        assertThat(CellSession.afterWindows(SETTLED, List.of(window(null), window(null)), 30, 0))
                .isEqualTo(new CellSession.AfterWindows(false, null));
    }

    @Test
    void anOpenModelThatKeepsUpHasNoBacklog() {
        // One arrival per ms, each served in 3 ms, windows [1000, 9000), the run stopped 100 ms after the last window.
        assertThat(CellSession.overloaded("latency", SimulationLogs.openModel(10_000, i -> 3, 9_100), 1_000, 9_000))
                .isNull();
        // A GC pause holds the 150 arrivals before the last edge for 200 ms: in flight, not a queue that grows.
        assertThat(CellSession.overloaded("latency",
                SimulationLogs.openModel(10_000, i -> i >= 8_850 && i < 9_000 ? 200 : 3, 9_100), 1_000, 9_000))
                .isNull();
    }

    @Test
    void anOpenModelWhoseQueueGrowsIsOverloaded() {
        // The service serves 0.9 arrivals per ms: arrival i ends at i / 0.9 ms. The run stops at 9,100 ms, so the
        // requests still queued then are in no record: the log has no end for them, only their users' starts.
        SimulationLog log = SimulationLogs.openModel(10_000, i -> (int) (i / 0.9) - i + 3, 9_100);
        // Counted by requests, as the first version of the rule did, the queue hides: the log holds 7,189 requests
        // that started in the windows, and 7,200 ended in them.
        assertThat(log.startedBetween(1_000, 9_000) - log.slice(1_000, 9_000).total()).isEqualTo(-11);
        // 8,000 users arrived in [1,000, 9,000); 7,200 ended there (those that arrived from 898 to 8,097 ms).
        String reason = CellSession.overloaded("latency", log, 1_000, 9_000);
        assertThat(reason).isEqualTo("overloaded: 800 of the 8000 iterations that arrived in the windows had not ended"
                + " by their end (10.0 %); the offered rate is more than the service served");
        // A closed model's users start as others end: the rule is the open model's only.
        assertThat(CellSession.overloaded("capacity", log, 1_000, 9_000)).isNull();
        assertThat(CellSession.overloaded("users-50", log, 1_000, 9_000)).isNull();
    }

    @Test
    void theBacklogRuleHasAFloorForFewRequestsAndAShareForMany() {
        assertThat(CellSession.backlog(20, 10)).isNull(); // 10 in flight of a smoke window's 20: the floor
        assertThat(CellSession.backlog(20, 9)).startsWith("overloaded: 11 of the 20");
        assertThat(CellSession.backlog(100_000, 98_000)).isNull(); // 2 %
        assertThat(CellSession.backlog(100_000, 97_999)).startsWith("overloaded: 2001 of the 100000");
        assertThat(CellSession.backlog(100, 103)).isNull(); // more ended than started: it drained what was in flight
        // More ended than arrived, beyond what was in flight: a queue from before the windows drained in them (the
        // first 840 req/s start of 2026-12-08: 6,300 arrived, 6,582 ended).
        assertThat(CellSession.backlog(100, 110)).isNull();
        assertThat(CellSession.backlog(100, 111)).startsWith("draining: 11 more iterations ended in the windows than"
                + " the 100 that arrived in them (11.0 %)");
        assertThat(CellSession.backlog(100_000, 102_000)).isNull();
        assertThat(CellSession.backlog(6_300, 6_582)).startsWith("draining: 282 more");
    }

    @Test
    void aCellOverItsErrorBudgetNamesItsCommonestError() {
        String timeout = "Request timeout to 127.0.0.1/127.0.0.1:44009 after 10000 ms";
        assertThat(CellSession.overErrorBudget(SimulationLogs.failing(90, 10, timeout).all(), 1.0))
                .isEqualTo("error rate 10.00% exceeds the budget of 1.00%; commonest: " + timeout
                        + " (10 of 10 failed)");
        assertThat(CellSession.overErrorBudget(SimulationLogs.failing(99, 1, timeout).all(), 1.0)).isNull();
        // Failed requests without a message (a check Gatling logs none for) leave the reason as it was.
        assertThat(CellSession.overErrorBudget(SimulationLogs.failing(0, 5, "").all(), 1.0))
                .isEqualTo("error rate 100.00% exceeds the budget of 1.00%");
    }

    /** One window without a completed request fails the start, even when the windows together hold many. */
    @Test
    void aStartWithAnEmptyWindowFailsWithItsReason() {
        SimulationLog log = SimulationLogs.of(10_000, 1); // requests end from 1 ms to 10,000 ms
        assertThat(CellSession.emptyWindow(log, new long[] {0, 5_000, 10_001})).isNull();
        // As in the drill's start: the load ended inside window 2 of 3, and window 3 holds nothing.
        assertThat(CellSession.emptyWindow(log, new long[] {2_000, 7_000, 12_000, 17_000}))
                .isEqualTo("the load generator recorded no completed request in window 3 of 3 (5.0 s): the load"
                        + " stopped or stalled inside the windows");
    }
}
