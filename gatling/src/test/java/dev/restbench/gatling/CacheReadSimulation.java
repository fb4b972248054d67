package dev.restbench.gatling;

/**
 * CACHE-read: GET one value from the service's in-process cache, the no-database workload of the Spring / Quarkus /
 * Go methodology. No SQL statement, so the HTTP stack and its threading model are what the service spends its CPU
 * on; at that methodology's 200 connections (benchmarks.json) a stack's concurrency handling shows, where 8 closed
 * users on one core leave threading models nothing to win.
 */
public class CacheReadSimulation extends BenchSimulation {

    public CacheReadSimulation() {
        super("cache-read", (ops, drafts) -> ops.getCacheValue());
    }
}
