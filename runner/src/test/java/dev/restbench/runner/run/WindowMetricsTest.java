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
                OptionalLong.of(gatling), ticks, null, null, null);
    }

    private static Reading withStatements(Reading r, long statements, long rows, long blocks, long textBytes) {
        return withStatements(r, new StatementStatistics.Counts(statements, rows, blocks, textBytes, 0L));
    }

    private static Reading withStatements(Reading r, StatementStatistics.Counts counts) {
        return new Reading(r.epochMillis(), r.nanoTime(), r.serviceCpuMicros(), r.jitCpuMicros(), r.postgresCpuMicros(),
                r.loadGeneratorCpuMicros(), r.cpuTicks(), r.scrape(), counts, r.connections());
    }

    @Test
    void statementsRowsPagesAndTextPerRequestAreTheCountersDeltaOverTheWindowsRequests() {
        Reading start = withStatements(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), 5_000, 90_000, 40_000, 300_000);
        Reading end = withStatements(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), 7_500, 115_000, 52_000,
                420_000);
        Map<String, Double> metrics = WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics();
        assertThat(metrics).containsEntry("sql_statements_per_req", 2.5).containsEntry("sql_rows_per_req", 25.0)
                .containsEntry("sql_blocks_per_req", 12.0).containsEntry("sql_text_bytes_per_req", 120.0)
                .containsEntry("sql_plans_per_req", 0.0);
    }

    /** The planner's runs where the server counts them; left out, not 0, where it does not (track_planning off). */
    @Test
    void plansPerRequestAreCountedWhereTheServerTracksPlanning() {
        Reading start = reading(0, 0, Map.of(), Map.of(), 0, 0, 0);
        Reading end = reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0);
        Map<String, Double> planned = WindowMetrics.of(
                withStatements(start, new StatementStatistics.Counts(5_000, 90_000, 40_000, 300_000, 4_000L)),
                withStatements(end, new StatementStatistics.Counts(7_500, 115_000, 52_000, 420_000, 6_500L)),
                List.of(), requests(1000), PINNED, true).metrics();
        Map<String, Double> untracked = WindowMetrics.of(
                withStatements(start, new StatementStatistics.Counts(5_000, 90_000, 40_000, 300_000)),
                withStatements(end, new StatementStatistics.Counts(7_500, 115_000, 52_000, 420_000)),
                List.of(), requests(1000), PINNED, true).metrics();

        assertThat(planned).containsEntry("sql_plans_per_req", 2.5);
        assertThat(untracked).containsEntry("sql_statements_per_req", 2.5).doesNotContainKey("sql_plans_per_req");
    }

    /** Go's runtime counts its heap allocations: the same figure as the JVM's, from go_memstats_alloc_bytes_total. */
    @Test
    void goAllocationPerRequestIsItsRuntimesCounterOverTheRequests() {
        Reading start = withScrape(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), """
                # TYPE go_memstats_alloc_bytes_total counter
                go_memstats_alloc_bytes_total 1.5e+06
                """);
        Reading end = withScrape(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), """
                # TYPE go_memstats_alloc_bytes_total counter
                go_memstats_alloc_bytes_total 5.5e+06
                """);
        Map<String, Double> metrics = WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics();
        assertThat(metrics).containsEntry("alloc_bytes_per_req", 4000.0);
    }

    private static Reading withScrape(Reading r, String text) {
        return new Reading(r.epochMillis(), r.nanoTime(), r.serviceCpuMicros(), r.jitCpuMicros(), r.postgresCpuMicros(),
                r.loadGeneratorCpuMicros(), r.cpuTicks(), PrometheusText.parse(text, r.nanoTime()), r.statements(),
                r.connections());
    }

    /**
     * Issue 23: the server's own mean time per request at µs resolution, from its timer's sum and count deltas; the
     * harness's scrapes of the metrics path are not the load's requests, and a series that first appears in the window
     * counts from zero.
     */
    @Test
    void serverTimePerRequestIsTheTimersDeltaWithoutTheHarnessPaths() {
        Reading start = withScrape(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), """
                http_server_requests_seconds_count{method="GET",status="200",uri="/items/{id}"} 1000
                http_server_requests_seconds_sum{method="GET",status="200",uri="/items/{id}"} 0.1
                http_server_requests_seconds_count{method="GET",status="200",uri="/actuator/prometheus"} 5
                http_server_requests_seconds_sum{method="GET",status="200",uri="/actuator/prometheus"} 0.05
                """);
        Reading end = withScrape(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), """
                http_server_requests_seconds_count{method="GET",status="200",uri="/items/{id}"} 2900
                http_server_requests_seconds_sum{method="GET",status="200",uri="/items/{id}"} 0.29
                http_server_requests_seconds_count{method="GET",status="404",uri="/items/{id}"} 100
                http_server_requests_seconds_sum{method="GET",status="404",uri="/items/{id}"} 0.03
                http_server_requests_seconds_count{method="GET",status="200",uri="/actuator/prometheus"} 6
                http_server_requests_seconds_sum{method="GET",status="200",uri="/actuator/prometheus"} 0.9
                """);
        Map<String, Double> metrics = WindowMetrics.of(start, end, List.of(), requests(2000), PINNED, true,
                java.util.Set.of("/actuator/health", "/actuator/prometheus")).metrics();
        // (0.19 s + 0.03 s) over 1900 + 100 requests: 110 µs; a slow scrape counted in would make it (0.22 + 0.85) s
        // over 2001: 535 µs.
        assertThat(metrics.get("server_us_per_req")).isCloseTo(110.0, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(WindowMetrics.of(start, end, List.of(), requests(2000), PINNED, true).metrics()
                .get("server_us_per_req")).as("the scrape counted").isCloseTo(1.07e6 / 2001,
                        org.assertj.core.data.Offset.offset(1e-6));
        assertThat(WindowMetrics.of(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), end, List.of(), requests(2000),
                PINNED, true).metrics()).as("no scrape at an edge").doesNotContainKey("server_us_per_req");
    }

    private static Reading withConnections(Reading r, Map<String, ConnectionBytes.Counts> connections) {
        return new Reading(r.epochMillis(), r.nanoTime(), r.serviceCpuMicros(), r.jitCpuMicros(), r.postgresCpuMicros(),
                r.loadGeneratorCpuMicros(), r.cpuTicks(), r.scrape(), r.statements(), connections);
    }

    /** A connection opened inside the window counts from zero; one that closed in it is lost (not subtracted). */
    @Test
    void responseBytesPerRequestAreTheLoadGeneratorsReceivedBytesOverTheRequests() {
        Reading start = withConnections(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), Map.of(
                "127.0.0.1:40000", new ConnectionBytes.Counts(100, 1_000),
                "127.0.0.1:40001", new ConnectionBytes.Counts(100, 5_000)));
        Reading end = withConnections(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), Map.of(
                "127.0.0.1:40000", new ConnectionBytes.Counts(900, 301_000),
                "127.0.0.1:40002", new ConnectionBytes.Counts(300, 100_000)));
        assertThat(WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics())
                .containsEntry("response_bytes_per_req", 400.0);
        assertThat(WindowMetrics.of(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), end, List.of(), requests(1000),
                PINNED, true).metrics()).as("no reading at an edge").doesNotContainKey("response_bytes_per_req");
    }

    @Test
    void theLoadGeneratorsAndPostgresCpuPerRequestAreTheirProcessesCpuOverTheRequests() {
        // PostgreSQL: a backend that ran on, and one that started inside the window (it counts from zero).
        Reading start = reading(0, 0, Map.of(), Map.of(100L, 1_000_000L, 101L, 20_000L), 5_000_000, 0, 0);
        Reading end = reading(10, 1_000_000, Map.of(), Map.of(100L, 1_300_000L, 101L, 70_000L, 102L, 30_000L),
                5_150_000, 0, 0);
        assertThat(WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics())
                .containsEntry("load_generator_cpu_us_per_req", 150.0)
                .containsEntry("postgres_cpu_us_per_req", 380.0);
        Reading noPostgres = reading(10, 1_000_000, Map.of(), Map.of(), 5_150_000, 0, 0);
        assertThat(WindowMetrics.of(reading(0, 0, Map.of(), Map.of(), 5_000_000, 0, 0), noPostgres, List.of(),
                requests(1000), PINNED, true).metrics()).as("an external database").doesNotContainKey(
                "postgres_cpu_us_per_req").containsKey("load_generator_cpu_us_per_req");
    }

    @Test
    void withoutCountersAtBothEdgesTheStatementMetricsAreAbsentNotZero() {
        Reading start = reading(0, 0, Map.of(), Map.of(), 0, 0, 0);
        Reading end = withStatements(reading(10, 1_000_000, Map.of(), Map.of(), 0, 0, 0), 7_500, 115_000, 52_000,
                420_000);
        assertThat(WindowMetrics.of(start, end, List.of(), requests(1000), PINNED, true).metrics())
                .doesNotContainKeys("sql_statements_per_req", "sql_rows_per_req", "sql_blocks_per_req",
                        "sql_text_bytes_per_req", "sql_plans_per_req");
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
        Reading end = reading(1, 250_000, Map.of(), Map.of(), 0, 0, 0);
        WindowMetrics.Result result = WindowMetrics.of(start, end, List.of(), requests(10), PINNED, true);
        assertThat(result.metrics()).containsEntry("cpu_us_per_req", 25_000.0).containsEntry("req_per_cpu_s", 40.0)
                .doesNotContainKey("jit_cpu_ms_per_s");
    }

    @Test
    void cpuThatTicksDoNotResolveIsNoFigureNeitherZeroNorNegative() {
        Reading start = reading(0, 0, Map.of(11L, 0L), Map.of(), 0, 0, 0);
        Reading end = reading(1, 20_000, Map.of(11L, 25_000L), Map.of(), 0, 0, 0);
        assertThat(WindowMetrics.of(start, end, List.of(), requests(5), PINNED, true).metrics())
                .as("the compilers' exact 25 ms beside a 20 ms tick count")
                .doesNotContainKeys("cpu_us_per_req", "req_per_cpu_s").containsEntry("jit_cpu_ms_per_s", 25.0);
        Reading below = reading(1, 190_000, Map.of(11L, 0L), Map.of(), 0, 0, 0);
        assertThat(WindowMetrics.of(start, below, List.of(), requests(5), PINNED, true).metrics())
                .as("190 ms: two ticks are more than 10 %").doesNotContainKey("cpu_us_per_req");
        Reading resolved = reading(1, 200_000, Map.of(11L, 0L), Map.of(), 0, 0, 0);
        assertThat(WindowMetrics.of(start, resolved, List.of(), requests(5), PINNED, true).metrics())
                .as("200 ms: resolved to 10 %").containsEntry("cpu_us_per_req", 40_000.0);
        Reading node = reading(1, 100_000, Map.of(), Map.of(), 0, 0, 0);
        assertThat(WindowMetrics.of(reading(0, 0, Map.of(), Map.of(), 0, 0, 0), node, List.of(), requests(5), PINNED,
                true).metrics()).as("no compiler threads: the same resolution").doesNotContainKey("cpu_us_per_req");
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
