package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.Main;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class PrCommentTest {

    @TempDir
    Path dir;

    /**
     * An A/B of the quick matrix's shape: 3 variants × 4 scenarios × the three primary metrics plus two secondary ones,
     * six rounds, 1 % noise per start (allocation 0.3 %, as measured); {@code slower} names the cells whose head CPU
     * is 10 % higher.
     */
    static Judgement quickMatrix(long seed, String... slower) {
        Random random = new Random(seed);
        ObjectNode run = RunFixtures.empty("ab", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        int[] rounds = {0, 1, 2, 3, 4, 5};
        for (String variant : List.of("jersey", "spring-mvc", "spring-data-rest")) {
            for (String scenario : List.of("read-heavy", "join-filter", "mixed", "heavy-body")) {
                boolean slow = List.of(slower).contains(variant + "/" + scenario);
                for (String side : List.of("base", "head")) {
                    Map<String, double[][]> metrics = new LinkedHashMap<>();
                    for (String metric : List.of("throughput", "cpu_us_per_req", "alloc_bytes_per_req", "latency_p99",
                            "heap_peak_mb")) {
                        double factor = slow && side.equals("head") && metric.equals("cpu_us_per_req") ? 1.10 : 1.0;
                        double[][] windows = new double[6][];
                        for (int r = 0; r < 6; r++) {
                            double noise = metric.equals("alloc_bytes_per_req") ? 0.003 : 0.01;
                            windows[r] = new double[] {100 * factor * (1 + noise * random.nextGaussian())};
                        }
                        metrics.put(metric, windows);
                    }
                    RunFixtures.cell(run, variant + "--" + side, scenario, "capacity", metrics, rounds);
                }
            }
        }
        RunRecord record = RunFixtures.record(run);
        return PairedJudge.judge(InterleavedRun.select(record, "base", "1a2b3c4d"),
                InterleavedRun.select(record, "head", "5e6f7a8b"), 0.05, RunFixtures.catalogue(), "6 rounds");
    }

    /** The lines a reader sees: the markdown outside the collapsed details. */
    static List<String> visibleLines(String markdown) {
        String visible = markdown.replaceAll("(?s)<details>.*?</details>\n?", "<details>(collapsed)</details>\n");
        return visible.lines().filter(line -> !line.isBlank() && !line.startsWith("<!--")).toList();
    }

    @Test
    void whenNothingChangedTheCommentIsAHeadlineAndOneSentenceAndFitsOnAScreen() {
        Judgement judgement = quickMatrix(1);
        String comment = PrComment.render(judgement, new PrComment.Links("https://ci/run/1", "https://site/"), List.of());

        assertThat(comment).startsWith(PrComment.MARKER + "\n**✅ No change**");
        assertThat(comment).contains("All 36 primary series: no change beyond the minimum effect");
        assertThat(visibleLines(comment)).hasSizeLessThanOrEqualTo(40);
        assertThat(comment).contains("<details><summary>All 36 primary series</summary>",
                "<details><summary>All 24 secondary series</summary>", "https://ci/run/1", "https://site/");
    }

    /**
     * The site's browser tests render this comment's markdown and count the lines a reader sees, so the fixture they
     * read is this class's output, not a hand-written imitation: the test writes it when asked
     * ({@code -Drestbench.writeSiteFixtures=true}) and otherwise fails when the committed copy has gone stale.
     */
    @Test
    void theSiteFixtureIsTheNoChangeCommentAsRendered() throws Exception {
        String comment = PrComment.render(quickMatrix(1), new PrComment.Links("https://ci/run/1", "https://site/"), List.of());
        Path fixture = Path.of("..", "site", "fixtures", "pr-comment-no-change.md");
        if (Boolean.getBoolean("restbench.writeSiteFixtures")) {
            Files.writeString(fixture, comment);
        }
        assertThat(Files.readString(fixture)).isEqualTo(comment);
    }

    @Test
    void aRegressionLeadsTheCommentWithItsRowAndInterval() {
        Judgement judgement = quickMatrix(2, "jersey/mixed");
        String comment = PrComment.render(judgement, new PrComment.Links(null, null), List.of());
        List<String> visible = visibleLines(comment);

        assertThat(visible.get(0)).startsWith("**🔴 Regression** — 1 primary regression, 35 primary series unchanged");
        String table = String.join("\n", visible);
        assertThat(table).containsPattern("\\| jersey \\| mixed \\| cpu_us_per_req \\(µs\\) \\| \\d+(\\.\\d)? \\(n=6\\) \\| 1\\d\\d \\(n=6\\)"
                + " \\| \\+\\d+\\.\\d % \\(\\+\\d+\\.\\d %…\\+\\d+\\.\\d %\\) \\| 🔴 regression(: [^|]*)? \\|");
        assertThat(visible).hasSizeLessThanOrEqualTo(40);
    }

    /**
     * An A/B measured with --flamegraphs: under the table, the base ↔ head page of each cell whose series changed,
     * with the results artifact's folder; cells that did not change get no link, and a name that is not one of ours
     * (the record is untrusted data in the comment job) is not printed.
     */
    @Test
    void aChangedSeriesLinksItsBaseAndHeadFlameGraphs() {
        Judgement judgement = quickMatrix(2, "jersey/mixed");
        Map<String, FlameGraphComparison.Pair> pairs = new LinkedHashMap<>();
        for (String key : List.of("jersey/mixed/capacity", "jersey/read-heavy/capacity")) {
            String[] p = key.split("/");
            pairs.put(key, new FlameGraphComparison.Pair(p[0], p[1], p[2], 0,
                    "flamegraphs/ab/" + p[0] + "-" + p[1] + "-" + p[2] + ".html", null, null));
        }
        String comment = PrComment.render(judgement, new PrComment.Links("https://ci/run/1", null)
                .withFlameGraphs("ab/results/20261120T000000Z-abc", pairs), List.of());
        List<String> visible = visibleLines(comment);
        assertThat(visible).anySatisfy(line -> assertThat(line).isEqualTo("Flame graphs, base ↔ head side by side"
                + " with a differential table, under `ab/results/20261120T000000Z-abc/` in the [run's results artifact]"
                + "(https://ci/run/1): jersey mixed: `flamegraphs/ab/jersey-mixed-capacity.html`"));
        // Measured here: the local directory, no link.
        assertThat(PrComment.render(judgement, new PrComment.Links(null, null)
                .withFlameGraphs("/tmp/ab/results/r1", pairs), List.of())).contains("Flame graphs, base ↔ head side by"
                + " side with a differential table, under `/tmp/ab/results/r1/`: jersey mixed: `flamegraphs/ab/");
        assertThat(comment).doesNotContain("jersey-read-heavy-capacity.html");
        assertThat(visible).hasSizeLessThanOrEqualTo(40);

        Map<String, FlameGraphComparison.Pair> hostile = Map.of("jersey/mixed/capacity", new FlameGraphComparison.Pair(
                "jersey", "mixed", "capacity)](https://evil", 0, "x", null, null));
        assertThat(PrComment.render(judgement, new PrComment.Links("https://ci/run/1", null)
                .withFlameGraphs("r1", hostile), List.of())).doesNotContain("evil").doesNotContain("Flame graphs, base");
        assertThat(PrComment.render(judgement, new PrComment.Links(null, null), List.of()))
                .doesNotContain("Flame graphs, base");
        assertThat(PrComment.render(judgement, new PrComment.Links(null, null).withFlameGraphs("x`)](evil", pairs),
                List.of())).doesNotContain("evil");
    }

    @Test
    void runsOfAnotherEnvironmentAreNotComparedAtAll() throws Exception {
        ObjectNode base = RunFixtures.run("r1", "b", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick",
                Map.of("cpu_us_per_req", new double[] {100, 101, 99}));
        ObjectNode head = RunFixtures.run("r2", "h", "2026-11-21T00:00:00Z", "sha256:0b1c2d3e4f50aa", "quick",
                Map.of("cpu_us_per_req", new double[] {150, 151, 149}));
        Judgement judgement = PairedJudge.judge(RunFixtures.record(base), RunFixtures.record(head), 0.05, RunFixtures.catalogue(),
                "test");
        String comment = PrComment.render(judgement, new PrComment.Links(null, null), List.of());

        assertThat(comment.lines().toList().get(1)).startsWith("**⛔ Not comparable** — different environment or"
                + " method (fingerprint 3f9a1c0d5e7b vs 0b1c2d3e4f50)");
        assertThat(comment).doesNotContain("🔴");
    }

    @Test
    void compareCommandGivesNoVerdictForTwoSeparateRunsAndExitsThreeOnlyOnARealRegression() throws Exception {
        Path history = dir.resolve("history");
        Random random = new Random(5);
        for (int day = 1; day <= 12; day++) {
            ObjectNode run = RunFixtures.run(String.format("202611%02dT000000Z-c%02d", day, day), "c" + day,
                    String.format("2026-11-%02dT00:00:00Z", day), RunFixtures.FINGERPRINT, "quick",
                    Map.of("latency_p99", RunFixtures.normal(random, 300, 0.01, 1)));
            Path runDir = dir.resolve("r" + day);
            Files.createDirectories(runDir);
            Files.writeString(runDir.resolve("run.json"), run.toPrettyString());
            new dev.restbench.runner.history.History(history).append(runDir,
                    dev.restbench.runner.history.History.AppendOptions.defaults());
        }
        ObjectNode slow = RunFixtures.run("20261128T000000Z-c28", "c28", "2026-11-28T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick", Map.of("latency_p99", new double[] {360}));
        Path head = dir.resolve("head");
        Files.createDirectories(head);
        Files.writeString(head.resolve("run.json"), slow.toPrettyString());
        Path output = dir.resolve("summary.md");
        PrintStream original = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            assertThat(Main.execute(List.of("compare", dir.resolve("r1").toString(), head.toString()))).isZero();
            assertThat(Main.execute(List.of("compare", "--fail-on-regression", dir.resolve("r1").toString(),
                    head.toString()))).isZero(); // one run is no history: no verdict, no failure
            assertThat(Main.execute(List.of("compare", "--fail-on-regression", "--output", output.toString(),
                    "--history", history.toString(), head.toString()))).isEqualTo(CompareCommand.EXIT_REGRESSION);
            assertThat(Main.execute(List.of("compare", head.toString(), dir.resolve("missing").toString())))
                    .isEqualTo(2);
        } finally {
            System.setOut(original);
        }
        assertThat(Files.readString(output)).startsWith(PrComment.MARKER).contains("🔴 Regression");
        assertThat(printed.toString(StandardCharsets.UTF_8)).contains(Files.readString(output))
                .contains("No verdict");
    }
}
