package dev.restbench.runner.analysis;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InterleavedRunTest {

    @Test
    void selectSplitsAnInterleavedRunIntoComparableRecords() throws Exception {
        var raw = RunFixtures.run("r1", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick",
                Map.of("throughput", new double[] {1000, 1001, 999, 1002, 998}));
        var cells = (com.fasterxml.jackson.databind.node.ArrayNode) raw.get("cells");
        var headCell = cells.get(0).deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) cells.get(0)).put("variant", "jersey--base");
        ((com.fasterxml.jackson.databind.node.ObjectNode) headCell).put("variant", "jersey--head");
        cells.add(headCell);
        RunRecord run = RunFixtures.record(raw);

        RunRecord base = InterleavedRun.select(run, "base", "b1");
        RunRecord head = InterleavedRun.select(run, "head", "h1");

        assertThat(base.points()).extracting(RunRecord.Point::seriesKey)
                .containsExactly("jersey/read-heavy/latency/throughput");
        assertThat(head.points()).extracting(RunRecord.Point::seriesKey)
                .containsExactly("jersey/read-heavy/latency/throughput");
        assertThat(base.commitId()).isEqualTo("b1");
        assertThat(head.commitId()).isEqualTo("h1");
        assertThat(base.comparableWith(head)).isTrue();
        assertThat(PairedJudge.judge(base, head, 0.05, RunFixtures.catalogue(), "test").rows())
                .singleElement().satisfies(row -> {
                    // Every round paired with itself: five pairs, each a ratio of exactly 1.
                    assertThat(row.n()).isEqualTo(5);
                    assertThat(row.changePct()).isZero();
                });
        assertThat(run.points()).hasSize(2); // the original is untouched
    }

    @Test
    void aCopysNameSplitsAtItsLastSeparator() {
        assertThat(InterleavedRun.label("spring-mvc-jdbc--head")).isEqualTo("head");
        assertThat(InterleavedRun.variant("spring-mvc-jdbc--head")).isEqualTo("spring-mvc-jdbc");
        // A variant's own name holds single hyphens only; one that is no copy has no label and is its own variant.
        assertThat(InterleavedRun.label("spring-mvc-jdbc")).isNull();
        assertThat(InterleavedRun.variant("spring-mvc-jdbc")).isEqualTo("spring-mvc-jdbc");
        assertThat(InterleavedRun.label("--head")).isNull();
    }
}
