package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The spread of identical runs on hand-made runs whose spreads are known. */
class SpreadCommandTest {

    private static RunRecord run(String id, double throughput, double cpu, String bottleneck, boolean steady,
                                 boolean secondCellFails) {
        ObjectNode run = RunFixtures.empty(id, "abc", "2026-11-23T00:00:00Z", "fp", "quick");
        ObjectNode cell = RunFixtures.cell(run, "jersey", "join-filter", "capacity", Map.of(
                "throughput", new double[][] {{throughput}}, "cpu_us_per_req", new double[][] {{cpu}},
                "gc_ms_per_s", new double[][] {{3}}), new int[] {0});
        cell.put("bottleneck", bottleneck);
        cell.put("steady", steady);
        if (secondCellFails) {
            RunFixtures.failedCell(run, "jersey", "mixed", "capacity", "error rate 5 % exceeds the budget");
        } else {
            RunFixtures.cell(run, "jersey", "mixed", "capacity", Map.of("throughput", new double[][] {{500}},
                    "cpu_us_per_req", new double[][] {{400}}), new int[] {0});
        }
        return RunFixtures.record(run);
    }

    @Test
    void spreadIsTheRangeOverTheMedian() {
        assertThat(SpreadCommand.spreadPct(new double[] {90, 100, 110})).isCloseTo(20.0, within(1e-9));
        assertThat(SpreadCommand.spreadPct(new double[] {100, Double.NaN, 150})).isCloseTo(40.0, within(1e-9));
        assertThat(SpreadCommand.spreadPct(new double[] {100, Double.NaN})).isNaN();
    }

    @Test
    void eachCellShowsItsValuesSpreadStateAndBound() {
        SpreadCommand.Report report = SpreadCommand.report(List.of(
                run("r1", 2000, 300, "service", true, false),
                run("r2", 2500, 250, "service", false, false),
                run("r3", 2200, 280, "database", true, true)));
        String cells = report.cells().plain();
        // Only the primary metrics (and req_per_cpu_s, absent here): gc_ms_per_s is secondary.
        assertThat(cells).contains("throughput").contains("cpu_us_per_req").doesNotContain("gc_ms_per_s");
        assertThat(cells).containsPattern("jersey/join-filter/capacity\\s+2000/2500/2200 \\(23 %\\)\\s+300/250/280 \\(18 %\\)"
                + "\\s+s/U/s\\s+serv/serv/data");
        // The failed cell of run 3 is a gap, not a zero; its spread is over the two runs that measured it.
        assertThat(cells).containsPattern("jersey/mixed/capacity\\s+500/500/✗ \\(0 %\\)\\s+400/400/✗ \\(0 %\\)\\s+s/s/✗");
        String summary = report.summary().plain();
        // join-filter was not service-bound in run 3, so only mixed... which has "—" in run 3: no service-bound cell.
        assertThat(summary).containsPattern("throughput\\s+0–23 % \\(median 11 %, 2 cells\\)\\s+—");
    }

    @Test
    void describeSaysRangeMedianAndCount() {
        assertThat(SpreadCommand.describe(List.of(4.0, 51.0, 20.0))).isEqualTo("4–51 % (median 20 %, 3 cells)");
        assertThat(SpreadCommand.describe(List.of())).isEqualTo("—");
    }
}
