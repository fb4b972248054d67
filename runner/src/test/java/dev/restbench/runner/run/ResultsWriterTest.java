package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.ManifestLoader;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What run.json and summary.md say of a cell whose starts were not all alike: one failed, recorded per start (an A/B,
 * a drill), and one whose last window lacked a metric. Built from the runner's own results, without a service.
 */
class ResultsWriterTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String HEX = "0123456789abcdef".repeat(4);

    @Test
    void aCellWithAFailedStartAndAMetricAWindowLackedIsRecordedAndSaid() throws IOException {
        Manifest manifest = ManifestLoader.load(ROOT.resolve("benchmarks.json"));
        RunSelection selection = RunSelection.of(manifest, RunCommandTest.options("--root", ROOT.toString(),
                "--profile", "quick", "--variants", "jersey", "--scenarios", "join-filter", "--regimes", "capacity",
                "--seed", "1"));
        RunResults results = new RunResults(selection, RunOptions.FailedStarts.RECORDED_PER_START);
        RunResults.CellKey key = new RunResults.CellKey("jersey", "join-filter", "capacity");
        Map<String, Double> full = Map.of("throughput", 2000.0, "cpu_us_per_req", 400.0);
        Map<String, Double> noCpu = Map.of("throughput", 2000.0);
        List<List<Map<String, Double>>> starts = List.of(List.of(full, full, full), List.of(), List.of(full, full, noCpu));
        for (int round = 0; round < starts.size(); round++) {
            int trial = results.startTrial("jersey");
            long startedAt = 1_000L * round;
            List<CellSession.Window> windows = starts.get(round).stream()
                    .map(m -> new CellSession.Window(startedAt, 5, m, null)).toList();
            CellSession.Outcome outcome = windows.isEmpty() ? CellSession.Outcome.failed("did not become ready", 0, null)
                    : new CellSession.Outcome(true, null, 60, true, null, windows, null, Map.of(), "r", null);
            results.add(key, new RunResults.TrialResult(trial, round, outcome));
        }

        String markdown = new SummaryTables(manifest, selection, results).markdown();
        assertThat(markdown).contains("## Metrics left out of a cell\n\n- jersey / join-filter / capacity:"
                + " cpu_us_per_req left out (start 3, window 3 of 3 lacks it)\n");

        JsonNode run = validRunJson(manifest, selection, results);
        assertThat(run.path("variants").get(0).has("faults")).as("no fault switch, no faults").isFalse();
        JsonNode cell = run.path("cells").get(0);
        assertThat(cell.path("reason").asText()).isEqualTo("1 of 3 starts failed, first start 2: did not become ready");
        assertThat(cell.path("metrics").has("cpu_us_per_req")).isFalse();
        assertThat(cell.path("metrics").path("throughput").path("n").asInt()).isEqualTo(2);
        RunRecord.Cell read = RunRecord.of(run, "test").cells().get(0);
        assertThat(read.lacking("cpu_us_per_req")).isEqualTo("start 3, window 3 of 3");
        assertThat(cell.path("lacking").path("cpu_us_per_req").path("round").asInt()).as("start 3's round")
                .isEqualTo(2);
        assertThat(read.lacking("throughput")).isNull();
    }

    /** A variant run with a fault switch on (a drill's copy) is recorded as altered on purpose, with the switch. */
    @Test
    void aVariantsFaultSwitchesAreRecorded(@TempDir Path dir) throws IOException {
        ObjectNode root = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        root.remove("$schema");
        for (JsonNode variant : root.path("variants")) {
            if (variant.path("name").asText().equals("jersey")) {
                ((ObjectNode) variant).putObject("env").put("FAULT_START_FAIL_PERCENT", "30")
                        .put("FAULT_CPU_PERCENT", "10").put("POOL_SIZE", "8");
            }
        }
        Path file = dir.resolve("benchmarks.json");
        Json.MAPPER.writeValue(file.toFile(), root);
        Manifest manifest = ManifestLoader.load(file);
        RunSelection selection = RunSelection.of(manifest, RunCommandTest.options("--root", ROOT.toString(),
                "--manifest", file.toString(), "--profile", "quick", "--variants", "jersey", "--scenarios",
                "join-filter", "--regimes", "capacity", "--seed", "1"));
        RunResults results = new RunResults(selection, RunOptions.FailedStarts.RECORDED_PER_START);
        int trial = results.startTrial("jersey");
        results.add(new RunResults.CellKey("jersey", "join-filter", "capacity"), new RunResults.TrialResult(trial, 0,
                CellSession.Outcome.failed("fault: start failed on purpose", 0, null)));

        JsonNode run = validRunJson(manifest, selection, results);

        assertThat(run.path("variants").get(0).path("faults")).as("the FAULT_* switches only, sorted")
                .isEqualTo(Json.MAPPER.createObjectNode().put("FAULT_CPU_PERCENT", "10")
                        .put("FAULT_START_FAIL_PERCENT", "30"));
        assertThat(RunRecord.of(run, "test").variant("jersey").orElseThrow().faults())
                .containsExactly(Map.entry("FAULT_CPU_PERCENT", "10"), Map.entry("FAULT_START_FAIL_PERCENT", "30"));
    }

    /** run.json as the runner writes it for these results, checked against its schema. */
    private static JsonNode validRunJson(Manifest manifest, RunSelection selection, RunResults results)
            throws IOException {
        Environment environment = new Environment(HEX, "AMD EPYC", 2, null, "Debian GNU/Linux 12", "6.1", "17",
                "17.11", manifest.harnessVersion(), HEX, HEX, "quick",
                Map.of("service", "1", "gatling", "0", "postgres", "0"), "proc", Map.of(), "c9");
        ResultsWriter.RunInfo info = new ResultsWriter.RunInfo("20261203T090000Z-abc1234", "quick",
                "2026-12-03T09:00:00Z", "2026-12-03T09:10:00Z",
                new GitInfo("abc1234", "a commit", "Ada <ada@example.org>", "2026-12-03T08:00:00Z", false),
                environment, Map.of(), selection.plan(), 1, null);
        JsonNode run = ResultsWriter.runJson(manifest, info, results);
        try (InputStream in = ResultsWriterTest.class.getResourceAsStream("/schemas/run.schema.json")) {
            assertThat(JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in)).validate(run)).as(run.toPrettyString()).isEmpty();
        }
        return run;
    }
}
