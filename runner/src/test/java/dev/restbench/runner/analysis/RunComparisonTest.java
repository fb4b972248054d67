package dev.restbench.runner.analysis;

import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RunComparisonTest {

    @Test
    void fixturesHeadRegressedJerseyThroughputAndLostASpringCell() throws Exception {
        RunRecord base = RunRecord.read(RunFixtures.fixture("run-base"));
        RunRecord head = RunRecord.read(RunFixtures.fixture("run-head"));

        RunComparison comparison = RunComparison.compare(base, head, Map.of(), new VerdictRule());

        assertThat(comparison.notComparableReason()).isNull();
        assertThat(row(comparison, "jersey/read-heavy/latency/throughput").result().verdict())
                .isEqualTo(Verdict.REGRESSION);
        assertThat(row(comparison, "jersey/read-heavy/latency/cpu_us_per_req").result().verdict())
                .isEqualTo(Verdict.REGRESSION);
        assertThat(row(comparison, "spring-mvc/read-heavy/latency/throughput").result().verdict())
                .isEqualTo(Verdict.WITHIN_NOISE);
        RunComparison.Row failed = row(comparison, "spring-mvc/read-heavy/throughput/throughput");
        assertThat(failed.result().verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(failed.result().reason()).startsWith("head cell failed: health check");
        assertThat(failed.result().head()).isNull();
        assertThat(comparison.hasRegression()).isTrue();
    }

    @Test
    void differentEnvironmentsAreNotComparable() throws Exception {
        RunRecord base = RunRecord.read(RunFixtures.fixture("run-base"));
        RunRecord other = RunRecord.read(RunFixtures.fixture("run-other-env"));

        RunComparison comparison = RunComparison.compare(base, other, Map.of(), new VerdictRule());

        assertThat(comparison.notComparableReason()).startsWith("different environment");
        assertThat(comparison.rows()).isNotEmpty()
                .allSatisfy(row -> assertThat(row.result().verdict()).isEqualTo(Verdict.NOT_COMPARABLE));
        assertThat(comparison.hasRegression()).isFalse();
    }

    @Test
    void differentProfilesAreNotComparable() {
        Random random = new Random(9);
        RunRecord quick = RunFixtures.record(RunFixtures.run("r1", "a", "2026-11-01T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick", Map.of("throughput", RunFixtures.normal(random, 1000, 0.01, 5))));
        RunRecord full = RunFixtures.record(RunFixtures.run("r2", "b", "2026-11-02T00:00:00Z",
                RunFixtures.FINGERPRINT, "full", Map.of("throughput", RunFixtures.normal(random, 500, 0.01, 5))));

        RunComparison comparison = RunComparison.compare(quick, full, Map.of(), new VerdictRule());

        assertThat(comparison.notComparableReason()).isEqualTo("different profile (quick vs full)");
        assertThat(comparison.rows()).singleElement()
                .satisfies(row -> assertThat(row.result().verdict()).isEqualTo(Verdict.NOT_COMPARABLE));
    }

    private static RunComparison.Row row(RunComparison comparison, String series) {
        return comparison.rows().stream().filter(r -> r.seriesKey().equals(series)).findFirst().orElseThrow();
    }
}
