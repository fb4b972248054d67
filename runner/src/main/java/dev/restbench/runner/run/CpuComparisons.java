package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.runner.stats.CellRatio;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The answer per scenario (capacity regime): which variant needs the least service CPU per request, and each other
 * variant's need as a ratio to it with a 95 % interval ({@link CellRatio}). CPU per request rather than throughput:
 * on a small box the database or the load generator often holds the throughput, while CPU per request is the stack's
 * own cost whatever bound the cell. One computation for the terminal's sentences, run.json and (copied) latest.json.
 */
record CpuComparisons(List<Comparison> scenarios) {

    static final String METRIC = "cpu_us_per_req";
    static final String REGIME = "capacity";

    record Comparison(String scenario, String best, double bestValue, List<Ratio> others) {
    }

    record Ratio(String variant, CellRatio.Estimate estimate) {
    }

    static CpuComparisons of(List<Manifest.Scenario> scenarios, List<RunResults.CellSummary> cells) {
        List<Comparison> out = new ArrayList<>();
        for (Manifest.Scenario scenario : scenarios) {
            List<RunResults.CellSummary> ok = cells.stream()
                    .filter(c -> c.ok() && c.key().scenario().equals(scenario.name())
                            && c.key().regime().equals(REGIME) && c.metrics().containsKey(METRIC)
                            && c.windows().containsKey(METRIC) && ResultsWriter.allPositive(c.windows().get(METRIC)))
                    .sorted(Comparator.comparingDouble(c -> c.metrics().get(METRIC).value()))
                    .toList();
            if (ok.size() < 2) {
                continue;
            }
            RunResults.CellSummary best = ok.get(0);
            List<Ratio> others = ok.subList(1, ok.size()).stream()
                    .map(c -> new Ratio(c.key().variant(), CellRatio.of(c.windows().get(METRIC),
                            best.windows().get(METRIC), 0.95)))
                    .toList();
            out.add(new Comparison(scenario.name(), best.key().variant(), best.metrics().get(METRIC).value(), others));
        }
        return new CpuComparisons(out);
    }
}
