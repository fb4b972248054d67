package dev.restbench.runner.run;

import dev.restbench.dataset.StatementStatistics;
import dev.restbench.gatling.results.SimulationLog;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A window's CPU arithmetic and its bottleneck on scripted readings. */
class WindowMetricsTest {
    private static final WindowMetrics.CpuSets PINNED = WindowMetrics.CpuSets.of("1", "0", "0");

    private static Reading reading(long seconds, long cpu, Map<Long, Long> jit, Map<Long, Long> postgres, long gatling,
                                   long serviceBusy, long sharedBusy) {
        // /proc/stat ticks: 100 per second per CPU.
        Map<Integer, long[]> ticks = Map.of(0, new long[] {sharedBusy, seconds * 100}, 1, new long[] {serviceBusy, seconds * 100});
        return new Reading(seconds * 1000, seconds * 1_000_000_000L, OptionalLong.of(cpu), jit, postgres,
                OptionalLong.of(gatling), ticks, null, null);
    }

    private static Reading withStatements(Reading r, long statements, long rows) {
        return new Reading(r.epochMillis(), r.nanoTime(), r.serviceCpuMicros(), r.jitCpuMicros(), r.postgresCpuMicros(),
                r.loadGeneratorCpuMicros(), r.cpuTicks(), r.scrape(), new StatementStatistics.Counts(statements, rows));
    }

    @Test
    void statementsAndRowsPerRequestAreTheCountersDeltaOverTheWindowsRequests() {
        Reading start = withStatements(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), 5_000, 90_000);
        Reading end = withStatements(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), 7_500, 115_000);
        Map<String, Double> metrics = WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics();
        assertThat(metrics).containsEntry("sql_statements_per_req", 2.5).containsEntry("sql_rows_per_req", 25.0);
    }

    @Test
    void withoutCountersAtBothEdgesTheStatementMetricsAreAbsentNotZero() {
        Reading start = reading(0, 0, Map.of(), Map.of(), 0, 0, 0);
        Reading end = withStatements(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), 7_500, 115_000);
        assertThat(WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics())
                .doesNotContainKeys("sql_statements_per_req", "sql_rows_per_req");
    }

    @Test
    void theCompilerThreadsDeltaIsSubtractedPerThreadAndCpuPerRequestIsTheRest() {
        Reading start = reading(0, 1_000_000, Map.of(11L, 300_000L, 12L, 50_000L), Map.of(), 0, 0, 0);
        Reading end = reading(10, 3_000_000, Map.of(11L, 900_000L, 12L, 50_000L), Map.of(), 0, 300, 0);
        WindowMetrics.Result result = WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true);
        assertThat(result.metrics()).containsEntry("cpu_us_per_req", 1_400.0)
                .containsEntry("jit_cpu_ms_per_s", 60.0)
                .containsEntry("throughput", 100.0);
        assertThat(result.metrics().get("req_per_cpu_s")).isCloseTo(1000 / 1.4, org.assertj.core.data.Offset.offset(1e-6));
    }

    @Test
    void aCompilerThreadStartedInsideTheWindowCountsFromZeroAndOneThatEndedIsLost() {
        Reading start = reading(0, 0, Map.of(11L, 100L, 12L, 5_000L), Map.of(), 0, 0, 0);
        Reading end = reading(1, 10_000, Map.of(11L, 400L, 13L, 700L), Map.of(), 0, 0, 0);
        assertThat(start.jitCpuUntil(end)).hasValue(300 + 700);
    }

    @Test
    void aProcessWithoutCompilerThreadsIsChargedItsWholeCpu() {
        Reading start = reading(0, 0, Map.of(), Map.of(), 0, 0, 0);
        Reading end = reading(1, 10_000, Map.of(), Map.of(), 0, 0, 0);
        WindowMetrics.Result result = WindowMetrics.of(start, end, List.of(), requests(10), PINNED, true);
        assertThat(result.metrics()).containsEntry("cpu_us_per_req", 1_000.0).doesNotContainKey("jit_cpu_ms_per_s");
    }

    @Test
    void tickRoundingBelowTheCompilerShareIsZeroNotNegative() {
        Reading start = reading(0, 0, Map.of(11L, 0L), Map.of(), 0, 0, 0);
        Reading end = reading(1, 20_000, Map.of(11L, 25_000L), Map.of(), 0, 0, 0);
        assertThat(WindowMetrics.of(start, end, List.of(), requests(5), PINNED, true).metrics())
                .containsEntry("cpu_us_per_req", 0.0);
    }

    @Test
    void aSaturatedServiceCoreIsTheServicesBottleneck() {
        Reading start = reading(0, 0, Map.of(11L, 0L), Map.of(5L, 0L), 0, 0, 0);
        Reading end = reading(10, 9_600_000, Map.of(11L, 100_000L), Map.of(5L, 2_000_000L), 3_000_000, 970, 520);
        WindowMetrics.Utilisation u = WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).utilisation();
        assertThat(u.service()).isCloseTo(0.96, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(u.bottleneck()).isEqualTo("service");
    }

    @Test
    void aSaturatedSharedCoreNamesItsLargerConsumer() {
        Reading start = reading(0, 0, Map.of(11L, 0L), Map.of(5L, 0L, 6L, 0L), 0, 0, 0);
        Reading database = reading(10, 4_000_000, Map.of(11L, 0L), Map.of(5L, 4_000_000L, 6L, 2_000_000L), 3_500_000, 400, 980);
        assertThat(WindowMetrics.of(start, database, List.of(), requests(100), PINNED, true).utilisation().bottleneck())
                .isEqualTo("database");
        Reading generator = reading(10, 4_000_000, Map.of(11L, 0L), Map.of(5L, 1_000_000L), 8_000_000, 400, 950);
        assertThat(WindowMetrics.of(start, generator, List.of(), requests(100), PINNED, true).utilisation().bottleneck())
                .isEqualTo("load-generator");
        Reading idle = reading(10, 4_000_000, Map.of(11L, 0L), Map.of(5L, 1_000_000L), 1_000_000, 400, 250);
        assertThat(WindowMetrics.of(start, idle, List.of(), requests(100), PINNED, true).utilisation().bottleneck())
                .isEqualTo("none");
    }

    @Test
    void aServiceAtAUrlHasNoUtilisationAndAnUnknownBottleneck() {
        Reading start = reading(0, 0, Map.of(), Map.of(), 0, 0, 0);
        Reading end = reading(10, 0, Map.of(), Map.of(), 0, 0, 0);
        WindowMetrics.Utilisation u = WindowMetrics.of(start, end, List.of(), requests(10),
                WindowMetrics.CpuSets.of("external", null, "0"), false).utilisation();
        assertThat(u.service()).isNull();
        assertThat(u.bottleneck()).isEqualTo("unknown");
    }

    @Test
    void cpuSetsFollowTasksetSyntax() {
        assertThat(WindowMetrics.CpuSets.parse("0-2,5")).containsExactly(0, 1, 2, 5);
        assertThat(WindowMetrics.CpuSets.parse("external")).isNull();
    }

    /** A slice of n requests of 2 ms each, all OK, from a synthetic simulation.log. */
    private static SimulationLog.Slice requests(int n) {
        return SimulationLogs.of(n, 2).all();
    }
}
