package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.Bench;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `./bench run --missing-runtimes`: a selected variant whose runtime is not on this machine (here a JDK 99) refuses
 * the run by default; with {@code record} its cells fail with the reason and the others still run (real embedded
 * PostgreSQL and a real process, {@link BrokenVariantTest}'s variants). Needs no variant jar.
 */
class MissingRuntimesTest {
    static final Path ROOT = BrokenVariantTest.ROOT;

    @TempDir
    Path tmp;

    private Path manifest;
    private Path results;

    /** BrokenVariantTest's manifest plus "no-jdk99" (exits-at-once on a JDK 99) and "no-artifact" (no build step). */
    @BeforeEach
    void manifest() throws Exception {
        ObjectNode json = BrokenVariantTest.brokenManifest();
        ArrayNode variants = (ArrayNode) json.get("variants");
        variants.addObject().put("name", "no-jdk99").put("extends", "exits-at-once")
                .putObject("runtime").put("name", "jdk").put("version", 99);
        variants.addObject().put("name", "no-artifact").put("extends", "exits-at-once")
                .put("artifact", "no/such/artifact.jar");
        manifest = tmp.resolve("benchmarks.json");
        Json.MAPPER.writeValue(manifest.toFile(), json);
        results = tmp.resolve("results");
    }

    private Bench.Result run(String variants, String... more) {
        String[] args = {"run", "--root", ROOT.toString(), "--manifest", manifest.toString(), "--profile", "smoke",
                "--results", results.toString(), "--no-tables", "--no-build", "--variants", variants};
        String[] all = new String[args.length + more.length];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return Bench.run(all);
    }

    @Test
    void byDefaultAMissingRuntimeRefusesTheWholeRunBeforeAnythingIsWritten() {
        for (Bench.Result refused : new Bench.Result[] {run("exits-at-once,no-jdk99"),
                run("exits-at-once,no-jdk99", "--missing-runtimes", "refuse")}) {
            assertThat(refused.exit()).isEqualTo(2);
            assertThat(refused.err()).startsWith("bench run: no-jdk99: no JDK 99 on this machine: looked at");
            assertThat(refused.out()).doesNotContain("not measured");
            assertThat(results).doesNotExist();
        }
    }

    @Test
    void recordLeavesTheCellsOfTheVariantWithoutItsRuntimeNotMeasuredAndRunsTheOthers() throws Exception {
        Bench.Result result = run("exits-at-once,no-jdk99", "--missing-runtimes", "record");

        // Exit 1 for exits-at-once's failed cells alone: a variant never begun fails nothing.
        assertThat(result.exit()).as(result.err()).isEqualTo(1);
        assertThat(result.out()).contains("no-jdk99: not measured, no JDK 99 on this machine: looked at")
                .contains("no-jdk99 s1 not measured: runtime: no JDK 99 on this machine")
                .doesNotContain("no-jdk99 s1 FAILED");
        assertThat(result.out().indexOf("not measured")).as("up front").isLessThan(result.out().indexOf("PostgreSQL:"));
        Path runDir = RunOutputs.onlyRun(results);
        JsonNode run = RunOutputs.validRunJson(runDir);
        assertThat(run.get("status").asText()).isEqualTo("failed");
        assertThat(run.get("cells")).hasSize(4); // 2 variants × read-heavy × (capacity, latency)
        for (JsonNode cell : run.get("cells")) {
            assertThat(cell.has("metrics")).isFalse();
            if (cell.get("variant").asText().equals("no-jdk99")) {
                assertThat(cell.get("status").asText()).isEqualTo("not-measured");
                assertThat(cell.get("reason").asText())
                        .startsWith("runtime: no JDK 99 on this machine: looked at the running JDK");
                assertThat(cell.get("trials").get(0).get("status").asText()).isEqualTo("not-measured");
            } else {
                assertThat(cell.get("status").asText()).isEqualTo("failed");
                // Started all the same (and failed as this variant does).
                assertThat(cell.get("reason").asText()).startsWith("start 1: start: exited with code 1");
            }
        }
        try (var logs = Files.list(runDir.resolve("logs"))) {
            assertThat(logs.map(p -> p.getFileName().toString())).as("never started")
                    .noneMatch(name -> name.startsWith("no-jdk99"));
        }
        assertThat(Files.readString(runDir.resolve("summary.md")))
                .contains("## Cells not measured")
                .contains("no-jdk99 / read-heavy / capacity: runtime: no JDK 99 on this machine")
                .doesNotContain("no-jdk99 / read-heavy / capacity: start 1:");
    }

    @Test
    void recordStillRefusesARunInWhichNoVariantHasItsRuntime() {
        Bench.Result refused = run("no-jdk99", "--missing-runtimes", "record");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.err()).contains("bench run: no-jdk99: no JDK 99 on this machine")
                .contains("bench run: no selected variant has its runtime on this machine: nothing to measure");
        assertThat(results).doesNotExist();
    }

    @Test
    void theDryRunWithRecordShowsThePlanAndRefusesOnlyForOtherProblems() {
        Bench.Result plan = run("exits-at-once,no-jdk99", "--missing-runtimes", "record", "--dry-run");
        assertThat(plan.exit()).as(plan.err()).isZero();
        assertThat(plan.err()).isEmpty();
        assertThat(plan.out()).contains("round 1  no-jdk99")
                .containsPattern("\\n  no-jdk99 +JDK 99 NOT FOUND \\(recorded as not measured\\), .*: not built or started\\n")
                .contains("no-jdk99: not measured, no JDK 99 on this machine")
                // The plan's own line counts every variant; this one only those that start.
                .containsPattern("wall time without the 1 variant\\(s\\) not measured: at least \\d+ min");

        Bench.Result other = run("exits-at-once,no-jdk99,no-artifact", "--missing-runtimes", "record", "--dry-run");
        assertThat(other.exit()).isEqualTo(2);
        assertThat(other.err()).isEqualTo("bench run: no-artifact: its artifact no/such/artifact.jar does not exist and"
                + " it has no build step" + System.lineSeparator());
        assertThat(results).doesNotExist();
    }
}
