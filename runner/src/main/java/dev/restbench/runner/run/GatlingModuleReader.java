package dev.restbench.runner.run;

import dev.restbench.gatling.results.GatlingResults;
import dev.restbench.gatling.results.GlobalStats;

import java.io.IOException;
import java.nio.file.Path;

/** {@link GatlingStatsReader} backed by the gatling module's results reader: the figures of Gatling's own report. */
final class GatlingModuleReader implements GatlingStatsReader {
    @Override
    public GatlingStats read(Path simulationDir) throws IOException {
        GlobalStats s = GatlingResults.readGlobalStats(simulationDir);
        return new GatlingStats(s.total(), s.ko(), s.errorPct(), s.meanRequestsPerSecond(), s.p50Ms(), s.p95Ms(),
                s.p99Ms(), s.maxMs());
    }
}
