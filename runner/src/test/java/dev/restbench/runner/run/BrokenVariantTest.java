package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.Main;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A variant whose process exits at once and one that never becomes healthy: the runner (real embedded PostgreSQL,
 * real processes) records failed cells with the reason and no numbers, kills what it started, writes a complete but
 * failed run, and exits non-zero. Needs no variant jar.
 */
class BrokenVariantTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    /**
     * The checkout's manifest with two variants of its own and no profile's variant list: "exits-at-once" (a JDK 17
     * process that exits at once: its artifact exists, its main class does not) and "never-healthy" (alive, never
     * healthy); health timeout 5 s.
     */
    static ObjectNode brokenManifest() throws Exception {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        manifest.remove("$schema");
        ArrayNode variants = manifest.putArray("variants");
        manifest.get("profiles").forEach(profile -> ((ObjectNode) profile).remove("variants"));
        ObjectNode broken = variants.addObject();
        broken.put("name", "exits-at-once");
        broken.put("folder", "services/jersey");
        broken.put("artifact", ROOT.resolve("benchmarks.json").toString()); // exists; the command ignores it
        broken.put("dialect", "plain");
        broken.set("classification", Json.MAPPER.readTree("""
                {"framework": "none", "server": "none", "threading": "platform", "language": "java", "dataAccess": "none"}"""));
        broken.putArray("command").add("{java}").add("-cp").add("{artifact}").add("dev.restbench.NoSuchMain");
        ObjectNode silent = variants.addObject();
        silent.put("name", "never-healthy");
        silent.put("extends", "exits-at-once");
        silent.putArray("command").add("sleep").add("600"); // alive, but nothing ever answers the health check
        ((ObjectNode) manifest.get("defaults")).put("healthTimeoutSeconds", 5);
        return manifest;
    }

    @Test
    void aVariantThatExitsAtOnceYieldsFailedCellsWithTheReasonAndNoNumbers(@TempDir Path tmp) throws Exception {
        ObjectNode manifest = brokenManifest();
        Path manifestFile = tmp.resolve("broken.json");
        Json.MAPPER.writeValue(manifestFile.toFile(), manifest);
        Path results = tmp.resolve("results");

        int exit = Main.execute(List.of("run", "--root", ROOT.toString(), "--manifest", manifestFile.toString(),
                "--profile", "smoke", "--results", results.toString(), "--no-tables"));

        assertThat(exit).isEqualTo(1);
        Path runDir = RunOutputs.onlyRun(results);
        JsonNode run = RunOutputs.validRunJson(runDir);
        assertThat(run.get("status").asText()).isEqualTo("failed");
        assertThat(run.get("cells")).hasSize(4); // 2 variants × read-heavy × (capacity, latency)
        for (JsonNode cell : run.get("cells")) {
            assertThat(cell.get("status").asText()).isEqualTo("failed");
            if (cell.get("variant").asText().equals("exits-at-once")) {
                assertThat(cell.get("reason").asText())
                        .startsWith("start 1: start: exited with code 1 before it was healthy")
                        .contains("dev.restbench.NoSuchMain");
            } else {
                assertThat(cell.get("reason").asText()).isEqualTo(
                        "start 1: start: not healthy after 5 s (GET /actuator/health never answered 200)");
            }
            assertThat(cell.has("metrics")).isFalse();
            assertThat(cell.get("trials").get(0).get("windows").isEmpty()).isTrue();
        }
        assertThat(ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").equals("/usr/bin/sleep 600")
                || p.info().commandLine().orElse("").equals("sleep 600"))
                .filter(p -> p.parent().map(pp -> pp.pid() == ProcessHandle.current().pid()).orElse(false)))
                .as("the never-healthy process was killed").isEmpty();
        assertThat(RunOutputs.validBenchFile(runDir.resolve("bench-throughput.json"))).isEmpty();
        assertThat(RunOutputs.validBenchFile(runDir.resolve("bench-costs.json"))).isEmpty();
        assertThat(Files.readString(runDir.resolve("summary.md")))
                .contains("| read-heavy | capacity | RPS (req/s) | FAILED |")
                .contains("exits-at-once / read-heavy / latency: start 1: start: exited with code 1")
                .contains("never-healthy / read-heavy / capacity: start 1: start: not healthy after 5 s");
    }
}
