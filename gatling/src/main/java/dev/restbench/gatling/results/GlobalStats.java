package dev.restbench.gatling.results;

import java.time.Instant;

/**
 * The global ("All Requests") statistics of one Gatling run, as Gatling's own HTML report shows them.
 *
 * <p>Response times are whole milliseconds (Gatling records and reports ms) and cover all requests, OK and KO, like
 * the report's statistics table. {@code errorPct} and {@code meanRequestsPerSecond} are the report's figures,
 * which Gatling rounds to two decimals. {@code runStart} and {@code runEnd} have the report's one-second
 * resolution: the report prints the start date and the duration in whole seconds.
 */
public record GlobalStats(
        long total,
        long ok,
        long ko,
        double errorPct,
        double meanRequestsPerSecond,
        long minMs,
        long p50Ms,
        long p75Ms,
        long p95Ms,
        long p99Ms,
        long maxMs,
        long meanMs,
        Instant runStart,
        Instant runEnd) {
}
