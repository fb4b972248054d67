package dev.restbench.runner.run;

/**
 * Gatling's global statistics of one simulation run, exactly as Gatling's own report shows them (read by the
 * gatling module's results reader; see {@link GatlingStatsReader}).
 *
 * @param requests all requests (OK + KO)
 * @param ko       failed requests
 * @param errorPct Gatling's "% KO"
 * @param meanRps  Gatling's "Cnt/s" (mean requests per second)
 * @param p50      response time percentiles and max, in ms
 */
record GatlingStats(long requests, long ko, double errorPct, double meanRps, double p50, double p95, double p99,
                    double max) {
}
