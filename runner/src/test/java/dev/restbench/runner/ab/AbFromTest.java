package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.Bench;
import dev.restbench.runner.Bench.Result;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code ./bench ab --from}: a recorded A/B judged again, as the PR comment job does with the benchmark's artifact. */
class AbFromTest {

    private static final int[] ROUNDS = {0, 1, 2, 3, 4, 5};

    @TempDir
    Path dir;

    /**
     * jersey--base/--head over six rounds with 20 % drift per round (pairing cancels it) and the head's factor; the
     * design as this ab writes it (schema 2), or with looks &gt; 0 as an older ab wrote it (schema 1).
     */
    private void record(double headFactor, int looks) throws Exception {
        Random random = new Random(7);
        ObjectNode run = RunFixtures.empty("20261122T000000Z-abc", "abc", "2026-11-22T00:00:00Z",
                RunFixtures.FINGERPRINT, "quick");
        run.putObject("plan").put("rounds", ROUNDS.length);
        double[][] base = new double[ROUNDS.length][];
        double[][] head = new double[ROUNDS.length][];
        for (int round = 0; round < ROUNDS.length; round++) {
            double drift = 1 + 0.2 * random.nextGaussian();
            base[round] = new double[] {100 * drift * (1 + 0.01 * random.nextGaussian())};
            head[round] = new double[] {100 * headFactor * drift * (1 + 0.01 * random.nextGaussian())};
        }
        RunFixtures.cell(run, "jersey--base", "join-filter", "capacity", Map.of("cpu_us_per_req", base), ROUNDS);
        RunFixtures.cell(run, "jersey--head", "join-filter", "capacity", Map.of("cpu_us_per_req", head), ROUNDS);
        Files.writeString(dir.resolve("run.json"), Json.MAPPER.writeValueAsString(run));
        Files.writeString(dir.resolve("ab.json"), looks > 0
                ? "{\"schemaVersion\":1,\"base\":\"aaaaaaa\",\"head\":\"bbbbbbb\",\"alpha\":0.05,\"looks\":" + looks
                + ",\"minEffectPct\":5,\"stopReason\":\"every primary series decided after 6 rounds\"}"
                : Json.MAPPER.writeValueAsString(new Design("aaaaaaa", "bbbbbbb", 0.05, RunFixtures.catalogue(),
                "the budget's 6 round(s) ran").toJson()));
    }

    private static Result run(String... args) {
        List<String> argv = new ArrayList<>(List.of("ab"));
        argv.addAll(List.of(args));
        return Bench.run(argv.toArray(String[]::new));
    }

    @Test
    void aRecordedTenPercentRegressionIsJudgedAgainWithTheRecordedLooks() throws Exception {
        record(1.10, 4);
        Path comment = dir.resolve("comment.md");
        Result result = run("--from", dir.toString(), "--base", "1111111", "--head", "2222222",
                "--output", comment.toString(), "--fail-on-regression");
        assertThat(result.exit()).as(result.err()).isEqualTo(3);
        String markdown = Files.readString(comment);
        assertThat(markdown).startsWith("<!-- restbench-pr-comment -->").contains("Regression")
                .contains("4 look(s) at α/4").contains("decided after 6 rounds");
        assertThat(markdown).contains("2222222").doesNotContain("bbbbbbb"); // the caller's commits win
    }

    @Test
    void aRecordOfThisSchemaIsJudgedOnceWithItsRecordedRules() throws Exception {
        record(1.10, 0);
        assertThat(Files.readString(dir.resolve("ab.json"))).contains("\"schemaVersion\" : 2")
                .contains("\"alloc_bytes_per_req\" : {").contains("\"reciprocalOf\" : \"cpu_us_per_req\"");
        Result result = run("--from", dir.toString(), "--fail-on-regression");
        assertThat(result.exit()).as(result.err()).isEqualTo(3);
        assertThat(result.out()).contains("judged once, after the last round").contains("budget's 6 round(s) ran")
                .contains("minimum effect 5 % (alloc_bytes_per_req 1 %, sql_statements_per_req 2 %");
    }

    /** The record is untrusted: its minimum effects are settings, but it cannot make CPU a reciprocal, never judged. */
    @Test
    void aRecordCannotTakeAMetricOutOfTheVerdict() throws Exception {
        record(1.10, 0);
        String text = Files.readString(dir.resolve("ab.json")).replace("\"cpu_us_per_req\" : {",
                "\"cpu_us_per_req\" : {\n    \"reciprocalOf\" : \"alloc_bytes_per_req\",");
        assertThat(text).contains("\"reciprocalOf\" : \"alloc_bytes_per_req\"");
        Files.writeString(dir.resolve("ab.json"), text);
        Result result = run("--from", dir.toString(), "--fail-on-regression");
        assertThat(result.exit()).as(result.out() + result.err()).isEqualTo(3);
        assertThat(result.out()).contains("🔴 regression");
    }

    @Test
    void anUnchangedHeadIsNoRegression() throws Exception {
        record(1.0, 4);
        Result result = run("--from", dir.toString(), "--fail-on-regression");
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).doesNotContain("🔴");
    }

    @Test
    void aDesignOutOfRangeOrMissingIsRejected() throws Exception {
        record(1.10, 4);
        Files.writeString(dir.resolve("ab.json"), "{\"schemaVersion\":1,\"alpha\":0.9,\"looks\":1,\"minEffectPct\":5}");
        Result result = run("--from", dir.toString());
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("alpha must be in (0, 0.5)");
        record(1.10, 0);
        String rule = Files.readString(dir.resolve("ab.json")).replaceFirst("\"minEffectPct\" : 1\\.0", "\"minEffectPct\" : 250");
        Files.writeString(dir.resolve("ab.json"), rule);
        assertThat(run("--from", dir.toString()).err()).contains("minEffectPct must be in (0, 100), was 250");
        Files.delete(dir.resolve("ab.json"));
        assertThat(run("--from", dir.toString()).err()).contains("ab.json is missing");
    }

    @Test
    void aRecordWithoutAHeadSideIsRejected() throws Exception {
        record(1.0, 1);
        String text = Files.readString(dir.resolve("run.json")).replace("jersey--head", "jersey--other");
        Files.writeString(dir.resolve("run.json"), text);
        Result result = run("--from", dir.toString());
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).contains("no head side");
    }
}
