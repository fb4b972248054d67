package dev.restbench.gatling.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * SimulationLog against the recorded Gatling 3.15.1 runs: what it reads from the binary log must be what Gatling's
 * own report (read independently by {@link GatlingResults}) shows for the same run.
 */
class SimulationLogTest {

    @ParameterizedTest
    @ValueSource(strings = {"jersey-read-heavy-overloaded", "jersey-read-heavy-capacity"})
    void theWholeLogHasTheReportsCountsAndExtremes(String recording) throws Exception {
        Path run = GatlingResults.findRunDirectory(recording(recording));
        GlobalStats report = GatlingResults.readGlobalStats(run);
        SimulationLog log = SimulationLog.read(run);
        SimulationLog.Slice all = log.all();

        assertThat(log.truncated()).isFalse();
        assertThat(log.gatlingVersion()).isEqualTo("3.15.1");
        assertThat(log.simulation()).isEqualTo("dev.restbench.gatling.ReadHeavySimulation");
        assertThat(all.total()).isEqualTo(report.total());
        assertThat(all.ok()).isEqualTo(report.ok());
        assertThat(all.ko()).isEqualTo(report.ko());
        assertThat(all.minMillis()).isEqualTo(report.minMs());
        assertThat(all.maxMillis()).isEqualTo(report.maxMs());
        // The report's percentiles come from a t-digest; ours are exact nearest-rank values of the same times.
        assertThat(all.percentileMillis(50)).isCloseTo(report.p50Ms(), withinOnePercentOrOneMs(report.p50Ms()));
        assertThat(all.percentileMillis(95)).isCloseTo(report.p95Ms(), withinOnePercentOrOneMs(report.p95Ms()));
        assertThat(all.percentileMillis(99)).isCloseTo(report.p99Ms(), withinOnePercentOrOneMs(report.p99Ms()));
        // The report starts at the first injected user (one-second resolution), a few seconds after Gatling's run start.
        assertThat(report.runStart().toEpochMilli() + 999 - log.runStartMillis()).isBetween(0L, 10_000L);
    }

    @Test
    void aFailedRequestsCommonestMessageIsTheOneGatlingsConsoleCounts() throws Exception {
        // The console of the overloaded recording: "> Request timeout to 127.0.0.1/127.0.0.1:47335 after 10000 ms  89 (100%)".
        SimulationLog overloaded = SimulationLog.read(GatlingResults.findRunDirectory(recording("jersey-read-heavy-overloaded")));
        assertThat(overloaded.all().commonestError())
                .isEqualTo("Request timeout to 127.0.0.1/127.0.0.1:47335 after 10000 ms (89 of 89 failed)");
        SimulationLog clean = SimulationLog.read(GatlingResults.findRunDirectory(recording("jersey-read-heavy-capacity")));
        assertThat(clean.all().ko()).isZero();
        assertThat(clean.all().commonestError()).isNull();
    }

    @Test
    void usersStartAndEndAsGatlingsConsoleCountsThem() throws Exception {
        // The overloaded recording's last console block: "waiting: 0 / active: 335 / done: 165" of 500 arrivals.
        SimulationLog overloaded = SimulationLog.read(GatlingResults.findRunDirectory(recording("jersey-read-heavy-overloaded")));
        assertThat(overloaded.usersStartedBetween(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(500);
        assertThat(overloaded.usersEndedBetween(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo(165);
        long from = overloaded.runStartMillis() + 5_000;
        long to = overloaded.runStartMillis() + 15_000;
        // From 5 to 15 s into the run 349 users arrived and 97 ended: the queue grew by 252.
        assertThat(overloaded.usersStartedBetween(from, to)).isEqualTo(349);
        assertThat(overloaded.usersEndedBetween(from, to)).isEqualTo(97);
    }

    @Test
    void backToBackSlicesShareNoRequestAndLoseNone() throws Exception {
        SimulationLog log = SimulationLog.read(GatlingResults.findRunDirectory(recording("jersey-read-heavy-capacity")));
        long start = log.runStartMillis();
        long end = log.lastEndMillis() + 1;
        long total = 0;
        for (long from = start; from < end; from += 1000) {
            total += log.slice(from, Math.min(end, from + 1000)).total();
        }
        assertThat(total).isEqualTo(log.all().total());
        assertThat(log.slice(start, start).total()).isZero();
    }

    @Test
    void splitsRequestsByOperationName() throws Exception {
        SimulationLog log = SimulationLog.read(GatlingResults.findRunDirectory(recording("jersey-read-heavy-capacity")));
        var byName = log.all().byName();
        // A read-heavy iteration is "list items" then "get item": two request names, about as many of each.
        assertThat(byName).hasSize(2);
        long sum = byName.values().stream().mapToLong(SimulationLog.Slice::total).sum();
        assertThat(sum).isEqualTo(log.all().total());
        long[] counts = byName.values().stream().mapToLong(SimulationLog.Slice::total).toArray();
        assertThat(Math.abs(counts[0] - counts[1])).isLessThanOrEqualTo(8); // at most one in flight per user
    }

    @Test
    void aCutLogKeepsTheWholeRecordsAndSaysSo() throws Exception {
        Path file = GatlingResults.findRunDirectory(recording("jersey-read-heavy-overloaded")).resolve("simulation.log");
        byte[] bytes = Files.readAllBytes(file);
        SimulationLog whole = SimulationLog.read(new ByteArrayInputStream(bytes), "whole");
        SimulationLog cut = SimulationLog.read(new ByteArrayInputStream(Arrays.copyOf(bytes, bytes.length - 7)), "cut");
        assertThat(cut.truncated()).isTrue();
        assertThat(cut.requestCount()).isBetween(whole.requestCount() - 1, whole.requestCount());
    }

    @Test
    void refusesALogOfAnotherGatlingVersionOrAnotherFormat() {
        byte[] otherVersion = {0, 0, 0, 0, 6, '3', '.', '9', '.', '0', '0', 0};
        assertThatThrownBy(() -> SimulationLog.read(new ByteArrayInputStream(otherVersion), "old.log"))
                .isInstanceOf(IOException.class).hasMessageContaining("written by Gatling 3.9.00");
        assertThatThrownBy(() -> SimulationLog.read(new ByteArrayInputStream("hello".getBytes()), "text.log"))
                .isInstanceOf(IOException.class).hasMessageContaining("not a Gatling simulation.log");
    }

    private static org.assertj.core.data.Offset<Long> withinOnePercentOrOneMs(long value) {
        return org.assertj.core.data.Offset.offset(Math.max(1, Math.round(value * 0.01)));
    }

    private static Path recording(String name) throws URISyntaxException {
        return Path.of(SimulationLogTest.class.getResource("/recorded-runs/" + name).toURI());
    }
}
