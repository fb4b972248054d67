package dev.restbench.runner.run;

/**
 * Gatling's global statistics of one simulation run, exactly as Gatling's own report shows them (read by the
 * gatling module's results reader; see {@link GatlingStatsReader}).
 *
 * @param requests all requests (OK + KO)
 * @param ko       failed requests
 * @param meanRps  Gatling's "mean requests/sec"
 * @param p50      response time percentiles and max, in ms
 */
record GatlingStats(long requests, long ko, double meanRps, double p50, double p95, double p99, double max) {

    double errorPct() {
        return requests == 0 ? 0.0 : ko * 100.0 / requests;
    }
}
