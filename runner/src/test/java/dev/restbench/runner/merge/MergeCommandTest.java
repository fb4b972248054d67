package dev.restbench.runner.merge;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.runner.Main;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MergeCommandTest {

    private static Path shard(Path root, String name, String variant, String fingerprint, String status)
            throws Exception {
        Path dir = root.resolve(name).resolve("20261121T000000Z-abc1234");
        Files.createDirectories(dir.resolve("gatling/" + variant + "-read-heavy-latency-r0"));
        Files.writeString(dir.resolve("gatling/" + variant + "-read-heavy-latency-r0/index.html"), variant);
        Files.writeString(dir.resolve("run.json"), """
                {"schemaVersion":1,"runId":"20261121T000000Z-abc1234","status":"%s","profile":"full",
                 "startedAt":"2026-11-21T00:0%s:00Z","finishedAt":"2026-11-21T01:0%s:00Z",
                 "commit":{"id":"abc1234"},"environment":{"fingerprint":"%s"},
                 "variants":[{"name":"%s","startup":{}}],
                 "cells":[{"variant":"%s","scenario":"read-heavy","regime":"latency","status":"%s"}],
                 "comparisons":[{"scenario":"read-heavy","kind":"across","best":"%s","ratios":[]}]}
                """.formatted(status, variant.length() % 10, variant.length() % 10, fingerprint, variant, variant, status,
                variant));
        Files.writeString(dir.resolve("bench-throughput.json"),
                "[{\"name\":\"%s/read-heavy/latency/throughput\",\"unit\":\"req/s\",\"value\":1,\"range\":\"± 0\",\"extra\":\"\"}]"
                        .formatted(variant));
        Files.writeString(dir.resolve("bench-costs.json"), "[]");
        Files.writeString(dir.resolve("summary.md"), "# " + variant);
        return dir;
    }

    @Test
    void joinsShardsOfOneRunIntoOneResultsDirectory(@TempDir Path tmp) throws Exception {
        shard(tmp.resolve("shards"), "results-jersey", "jersey", "fp", "ok");
        shard(tmp.resolve("shards"), "results-spring-mvc", "spring-mvc", "fp", "failed");
        Path out = tmp.resolve("merged");

        MergeCommand.merge(MergeCommand.findRuns(tmp.resolve("shards")), out);

        JsonNode run = Json.MAPPER.readTree(out.resolve("run.json").toFile());
        assertThat(run.path("cells")).hasSize(2);
        assertThat(run.path("variants").findValuesAsText("name")).containsExactly("jersey", "spring-mvc");
        assertThat(run.path("status").asText()).isEqualTo("failed");
        assertThat(run.path("runId").asText()).isEqualTo("20261121T000000Z-abc1234-merged2");
        assertThat(run.path("comparisons")).as("no shard's comparisons stand for the merged run: none of these"
                + " latency cells compares CPU").isEmpty();
        assertThat(Json.MAPPER.readTree(out.resolve("bench-throughput.json").toFile())).hasSize(2);
        assertThat(out.resolve("gatling/jersey-read-heavy-latency-r0/index.html")).hasContent("jersey");
        assertThat(out.resolve("gatling/spring-mvc-read-heavy-latency-r0/index.html")).hasContent("spring-mvc");
        assertThat(Files.readString(out.resolve("summary.md"))).contains("# jersey", "# spring-mvc");
    }

    /**
     * A shard whose variants were all left out (its host lacks their runtime) measured nothing and says "failed" of
     * itself, but failed no cell: merged with one that measured, the run is ok, as the runner would have written it.
     */
    @Test
    void aShardThatMeasuredNothingButFailedNothingLeavesTheMergedRunOk(@TempDir Path tmp) throws Exception {
        shard(tmp.resolve("shards"), "results-jersey", "jersey", "fp", "ok");
        Path skipped = shard(tmp.resolve("shards"), "results-jersey-jdk25", "jersey-jdk25", "fp", "not-measured");
        Path json = skipped.resolve("run.json");
        Files.writeString(json, Files.readString(json).replaceFirst("\"status\":\"not-measured\"", "\"status\":\"failed\""));

        MergeCommand.merge(MergeCommand.findRuns(tmp.resolve("shards")), tmp.resolve("merged"));

        JsonNode run = Json.MAPPER.readTree(tmp.resolve("merged/run.json").toFile());
        assertThat(run.path("cells").findValuesAsText("status")).containsExactlyInAnyOrder("ok", "not-measured");
        assertThat(run.path("status").asText()).isEqualTo("ok");
    }

    @Test
    void oneShardIsACopy(@TempDir Path tmp) throws Exception {
        Path only = shard(tmp, "results-all", "jersey", "fp", "ok");
        MergeCommand.merge(List.of(only), tmp.resolve("merged"));
        assertThat(Json.MAPPER.readTree(tmp.resolve("merged/run.json").toFile()))
                .isEqualTo(Json.MAPPER.readTree(only.resolve("run.json").toFile()));
    }

    @Test
    void refusesShardsFromDifferentMachinesOrRepeatedVariants(@TempDir Path tmp) throws Exception {
        Path a = shard(tmp, "a", "jersey", "fp-one", "ok");
        Path b = shard(tmp, "b", "spring-mvc", "fp-two", "ok");
        assertThatThrownBy(() -> MergeCommand.merge(List.of(a, b), tmp.resolve("x")))
                .hasMessageContaining("/environment/fingerprint");
        assertThat(tmp.resolve("x/run.json")).doesNotExist();

        Path c = shard(tmp, "c", "jersey", "fp-one", "ok");
        assertThatThrownBy(() -> MergeCommand.merge(List.of(a, c), tmp.resolve("y")))
                .hasMessageContaining("appears in two shards");
        assertThatThrownBy(() -> MergeCommand.merge(List.of(), tmp.resolve("z")))
                .hasMessageContaining("no finished run");
    }

    /** Each shard compared only its own variants; the merged run compares them all, from every shard's windows. */
    @Test
    void comparesTheVariantsOfEveryShard(@TempDir Path tmp) throws Exception {
        Path jersey = shard(tmp.resolve("shards"), "results-jersey", "jersey", "fp", "ok");
        Path spring = shard(tmp.resolve("shards"), "results-spring-mvc", "spring-mvc", "fp", "ok");
        withCapacityCell(jersey, "jersey", "jdbc", "[[100, 110, 105], [95, 100, 98]]");
        withCapacityCell(spring, "spring-mvc", "jpa", "[[300, 310, 290], [280, 300, 295]]");
        Path out = tmp.resolve("merged");

        MergeCommand.merge(MergeCommand.findRuns(tmp.resolve("shards")), out);

        JsonNode comparisons = Json.MAPPER.readTree(out.resolve("run.json").toFile()).path("comparisons");
        assertThat(comparisons).as(comparisons.toString()).hasSize(1);
        JsonNode across = comparisons.get(0);
        assertThat(across.path("scenario").asText()).isEqualTo("point-read");
        assertThat(across.path("kind").asText()).isEqualTo("across");
        assertThat(across.path("best").asText()).isEqualTo("jersey");
        assertThat(across.path("ratios").get(0).path("variant").asText()).isEqualTo("spring-mvc");
        assertThat(across.path("ratios").get(0).path("ratio").asDouble()).isBetween(2.8, 3.1);
        assertThat(across.path("ratios").get(0).path("ci95")).hasSize(2);
    }

    /** A capacity cell of point-read with CPU windows, the variant classified by its data access. */
    private static void withCapacityCell(Path dir, String variant, String dataAccess, String windows)
            throws Exception {
        var run = (com.fasterxml.jackson.databind.node.ObjectNode) Json.MAPPER.readTree(
                dir.resolve("run.json").toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) run.path("variants").get(0)).putObject("classification")
                .put("framework", variant).put("dataAccess", dataAccess);
        JsonNode values = Json.MAPPER.readTree(windows);
        double value = 1;
        int n = 0;
        for (JsonNode start : values) {
            for (JsonNode w : start) {
                value *= w.asDouble();
                n++;
            }
        }
        run.withArray("cells").addObject().put("variant", variant).put("scenario", "point-read")
                .put("regime", "capacity").put("status", "ok").putObject("metrics").putObject("cpu_us_per_req")
                .put("value", Math.pow(value, 1.0 / n)).set("windows", values);
        Files.writeString(dir.resolve("run.json"), run.toString());
    }

    @Test
    void aMissingShardDirectoryIsBadInputAndWritesNothing(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("merged");
        int exit = Main.execute(List.of("merge", "--out", out.toString(), tmp.resolve("absent").toString()));
        assertThat(exit).isEqualTo(2);
        assertThat(out).doesNotExist();
    }
}
