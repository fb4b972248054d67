package dev.restbench.runner.report;

import dev.restbench.runner.analysis.RunComparison;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.VerdictRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class PrCommentTest {

    @TempDir
    Path dir;

    @Test
    void commentHasMarkerVerdictLineTablesAndDetails() throws Exception {
        RunComparison comparison = RunComparison.compare(RunRecord.read(RunFixtures.fixture("run-base")),
                RunRecord.read(RunFixtures.fixture("run-head")), Map.of(), new VerdictRule());

        String comment = PrComment.render(comparison,
                new PrComment.Links("https://example.org/artifacts/1", "https://acme.github.io/restbench/"), List.of());

        List<String> lines = comment.lines().toList();
        assertThat(lines.get(0)).isEqualTo(PrComment.MARKER);
        assertThat(lines.get(1)).startsWith("**🔴 Regression** — 4 regressions, ").contains("base `1a2b3c4` → head `9f8e7d6`");
        assertThat(comment).contains("#### read-heavy\n\n| variant | regime | metric | base | head | Δ % | verdict |");
        assertThat(comment).containsPattern("\\| jersey \\| latency \\| throughput \\(req/s\\) \\| 2,1\\d\\d ± [0-9.]+ % \\(n=5\\) \\| "
                + "1,[89]\\d\\d ± [0-9.]+ % \\(n=5\\) \\| -1\\d\\.\\d \\| 🔴 regression \\(band ±[0-9.]+ %\\) \\|");
        assertThat(comment).contains("| spring-mvc | throughput | throughput (req/s) | 2,");
        assertThat(comment).contains("⚪ inconclusive: head cell failed: health check did not pass within 60 s");
        assertThat(comment).contains("<details><summary>", "n=5/5", "cpuModel AMD EPYC 7B13",
                "Gatling reports: https://example.org/artifacts/1", "https://acme.github.io/restbench/");
    }

    @Test
    void headlineSaysInconclusiveWhenMostSeriesCouldNotBeJudged() throws Exception {
        RunRecord base = RunRecord.read(RunFixtures.fixture("run-base"));
        RunComparison same = RunComparison.compare(base, base, Map.of(), new VerdictRule());
        assertThat(PrComment.headline(same)).startsWith("**✅ No change beyond noise** — ");

        RunComparison unjudged = RunComparison.compare(null, base, Map.of(), new VerdictRule());
        assertThat(PrComment.headline(unjudged)).startsWith("**⚪ Inconclusive** — ").contains("no baseline");
    }

    @Test
    void notComparableRunsSayWhyOnTheFirstLine() throws Exception {
        RunComparison comparison = RunComparison.compare(RunRecord.read(RunFixtures.fixture("run-base")),
                RunRecord.read(RunFixtures.fixture("run-other-env")), Map.of(), new VerdictRule());

        String comment = PrComment.render(comparison, new PrComment.Links(null, null), List.of());

        assertThat(comment.lines().toList().get(1))
                .startsWith("**⛔ Not comparable:** different environment (fingerprint 3f9a1c0d5e7b vs 0b1c2d3e4f50)");
        assertThat(comment).doesNotContain("🔴");
    }

    @Test
    void compareCommandExitsThreeOnRegressionOnlyWhenAsked() throws Exception {
        String base = RunFixtures.fixture("run-base").toString();
        String head = RunFixtures.fixture("run-head").toString();
        Path output = dir.resolve("summary.md");
        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThat(new CompareCommand().run(List.of(base, head))).isZero();
            assertThat(new CompareCommand().run(List.of("--fail-on-regression", "--output", output.toString(),
                    base, head))).isEqualTo(CompareCommand.EXIT_REGRESSION);
            assertThat(new CompareCommand().run(List.of("--fail-on-regression", base, base))).isZero();
            assertThat(new CompareCommand().run(List.of(base, dir.resolve("missing").toString()))).isEqualTo(2);
        } finally {
            System.setOut(original);
        }
        assertThat(Files.readString(output)).startsWith(PrComment.MARKER);
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(Files.readString(output));
    }
}
