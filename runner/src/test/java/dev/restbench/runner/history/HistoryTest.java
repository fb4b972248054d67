package dev.restbench.runner.history;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class HistoryTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path root;

    @Test
    void keepsTheRunsFlameGraphsAndLinksThemFromLatestJsonOnlyWhenTheyAreThere(@TempDir Path runs) throws Exception {
        // A run directory as ./bench run --flamegraphs leaves it: graphs of the first cell, and a second cell whose
        // record names a path outside the run (never copied, never linked).
        Path runDir = runs.resolve("run");
        Files.createDirectories(runDir);
        ObjectNode run = (ObjectNode) JSON.readTree(RunFixtures.fixture("run-head").resolve("run.json").toFile());
        String runId = run.get("runId").asText();
        ObjectNode first = (ObjectNode) run.withArray("cells").get(0);
        String cell = first.get("variant").asText() + "-" + first.get("scenario").asText() + "-"
                + first.get("regime").asText() + "-s1";
        ObjectNode firstTrial = first.putArray("trials").addObject();
        firstTrial.put("warmupSeconds", 42.0);
        ObjectNode graphs = firstTrial.putObject("flameGraphs");
        // How the figures were taken, as ResultsWriter records it: latest.json carries it to the site's Method page.
        run.putObject("method").put("startsPerVariant", 3).putObject("warmup").put("maxSeconds", 120);
        run.putArray("metricDefinitions").addObject().put("id", "throughput").put("description", "Requests per second");
        graphs.put("cpu", "flamegraphs/" + cell + "/cpu.html");
        graphs.put("alloc", "flamegraphs/" + cell + "/alloc.html");
        for (String kind : List.of("cpu", "alloc")) {
            Files.createDirectories(runDir.resolve("flamegraphs").resolve(cell));
            Files.writeString(runDir.resolve("flamegraphs").resolve(cell).resolve(kind + ".html"), "<html>" + kind);
        }
        ObjectNode second = (ObjectNode) run.withArray("cells").get(1);
        ObjectNode outside = second.putArray("trials").addObject().putObject("flameGraphs");
        outside.put("cpu", "flamegraphs/../../etc/cpu.html");
        outside.put("alloc", "flamegraphs/x/alloc.html");
        Files.writeString(runDir.resolve("run.json"), JSON.writeValueAsString(run));

        History history = new History(root);
        History.AppendResult result = history.append(runDir, new History.AppendOptions(null, false, null));

        String kept = "flamegraphs/" + runId + "/" + cell + "/";
        assertThat(result.changedFiles()).contains(kept + "cpu.html", kept + "alloc.html");
        assertThat(Files.readString(history.dir().resolve(kept + "alloc.html"))).isEqualTo("<html>alloc");
        JsonNode latest = JSON.readTree(history.dir().resolve("latest.json").toFile());
        List<JsonNode> linked = new ArrayList<>();
        latest.get("cells").forEach(c -> {
            if (c.has("flameGraphs")) {
                linked.add(c);
            }
        });
        assertThat(linked).hasSize(1);
        assertThat(latest.get("method").get("warmup").get("maxSeconds").asInt()).isEqualTo(120);
        assertThat(latest.get("metricDefinitions").get(0).get("description").asText()).isEqualTo("Requests per second");
        assertThat(linked.get(0).get("warmup").get("meanSeconds").asDouble()).isEqualTo(42.0);
        assertThat(linked.get(0).get("flameGraphs").get("cpu").asText()).isEqualTo(kept + "cpu.html");
        assertThat(linked.get(0).get("flameGraphs").get("alloc").asText()).isEqualTo(kept + "alloc.html");
        try (Stream<Path> files = Files.walk(history.dir().resolve("flamegraphs"))) {
            assertThat(files.filter(Files::isRegularFile).count()).isEqualTo(2);
        }

        // The same record appended as a file (no run directory beside it): nothing to copy, so nothing is linked.
        Path other = root.resolve("other");
        History bare = new History(other);
        bare.append(runDir.resolve("run.json"), new History.AppendOptions(null, false, null));
        JsonNode bareLatest = JSON.readTree(bare.dir().resolve("latest.json").toFile());
        bareLatest.get("cells").forEach(c -> assertThat(c.has("flameGraphs")).isFalse());
    }

    @Test
    void appendedRunsProduceDataJsInGithubActionBenchmarksFormat() throws Exception {
        History history = new History(root);
        for (String run : List.of("run-base", "run-head", "run-other-env")) {
            history.append(RunFixtures.fixture(run), new History.AppendOptions("https://github.com/acme/restbench",
                    false, null));
        }

        String script = Files.readString(history.dir().resolve("data.js"), StandardCharsets.UTF_8);
        assertThat(script).startsWith("window.BENCHMARK_DATA = {\n  \"lastUpdate\": ");
        JsonNode data = JSON.readTree(script.substring(DataJs.PREFIX.length()));
        // What JSON.stringify(data, null, 2) would print for the same value: byte for byte.
        assertThat(JsJson.stringify(data)).isEqualTo(script.substring(DataJs.PREFIX.length()));

        assertFields(data, Map.of("lastUpdate", JsonNodeType.NUMBER, "repoUrl", JsonNodeType.STRING,
                "entries", JsonNodeType.OBJECT));
        assertThat(data.get("lastUpdate").isIntegralNumber()).isTrue();
        assertThat(data.get("repoUrl").asText()).isEqualTo("https://github.com/acme/restbench");
        assertThat(names(data.get("entries"))).containsExactly("throughput", "costs");

        Set<String> benchNames = new HashSet<>();
        for (String suite : List.of("throughput", "costs")) {
            JsonNode entries = data.get("entries").get(suite);
            assertThat(entries.isArray()).isTrue();
            assertThat(entries).hasSize(3);
            for (JsonNode entry : entries) {
                assertFields(entry, Map.of("commit", JsonNodeType.OBJECT, "date", JsonNodeType.NUMBER,
                        "tool", JsonNodeType.STRING, "benches", JsonNodeType.ARRAY));
                assertThat(entry.get("date").isIntegralNumber()).isTrue();
                assertThat(entry.get("tool").asText())
                        .isEqualTo(suite.equals("throughput") ? "customBiggerIsBetter" : "customSmallerIsBetter");
                JsonNode commit = entry.get("commit");
                assertFields(commit, Map.of("author", JsonNodeType.OBJECT, "committer", JsonNodeType.OBJECT,
                        "distinct", JsonNodeType.BOOLEAN, "id", JsonNodeType.STRING, "message", JsonNodeType.STRING,
                        "timestamp", JsonNodeType.STRING, "tree_id", JsonNodeType.STRING, "url", JsonNodeType.STRING));
                for (String user : List.of("author", "committer")) {
                    assertFields(commit.get(user), Map.of("email", JsonNodeType.STRING, "name", JsonNodeType.STRING,
                            "username", JsonNodeType.STRING));
                }
                assertThat(commit.get("author").get("email").asText()).isEqualTo("ada@example.org");
                assertThat(commit.get("url").asText())
                        .isEqualTo("https://github.com/acme/restbench/commit/" + commit.get("id").asText());
                assertThat(entry.get("benches")).isNotEmpty();
                for (JsonNode bench : entry.get("benches")) {
                    assertFields(bench, Map.of("name", JsonNodeType.STRING, "value", JsonNodeType.NUMBER,
                            "range", JsonNodeType.STRING, "unit", JsonNodeType.STRING, "extra", JsonNodeType.STRING));
                    assertThat(bench.get("range").asText()).startsWith("± ");
                    assertThat(bench.get("extra").asText()).startsWith("n=").contains(" profile=quick env=");
                    benchNames.add(bench.get("name").asText());
                }
            }
        }
        assertThat(benchNames).contains("jersey/read-heavy/latency/throughput",
                "jersey/read-heavy/latency/latency_p99", "spring-mvc/startup/-/time_to_ready_ms");
        // run-head's failed cell contributes nothing: its only numbers come from run-base and run-other-env.
        JsonNode headThroughput = data.get("entries").get("throughput").get(1);
        assertThat(headThroughput.get("benches")).extracting(b -> b.get("name").asText())
                .doesNotContain("spring-mvc/read-heavy/throughput/throughput")
                .contains("spring-mvc/read-heavy/latency/throughput");
        assertThat(data.get("entries").get("throughput").get(0).get("benches"))
                .extracting(b -> b.get("name").asText()).contains("spring-mvc/read-heavy/throughput/throughput");
    }

    @Test
    void dataJsEvaluatesInNodeToTheSameJsonStringifyOutput() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(nodeAvailable(), "node is not installed");
        History history = new History(root);
        history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        history.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        Path script = root.resolve("check.js");
        Files.writeString(script, """
                const fs = require('fs');
                const path = process.argv[2];
                const text = fs.readFileSync(path, 'utf8');
                const window = {};
                new Function('window', text)(window);
                const again = 'window.BENCHMARK_DATA = ' + JSON.stringify(window.BENCHMARK_DATA, null, 2);
                process.stdout.write(again === text ? 'same' : 'different');
                """);
        Process process = new ProcessBuilder("node", script.toString(), history.dir().resolve("data.js").toString())
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).isZero();
        assertThat(output).isEqualTo("same");
    }

    @Test
    void reAppendingARunChangesNoByte() throws Exception {
        History history = new History(root);
        history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        history.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        Map<String, byte[]> before = snapshot(history.dir());

        History.AppendResult again = history.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        History.AppendResult older = history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());

        assertThat(again.alreadyPresent()).isTrue();
        assertThat(again.changedFiles()).isEmpty();
        assertThat(older.changedFiles()).isEmpty();
        Map<String, byte[]> after = snapshot(history.dir());
        assertThat(after.keySet()).isEqualTo(before.keySet());
        after.forEach((file, bytes) -> assertThat(bytes).as(file).isEqualTo(before.get(file)));
        JsonNode index = JSON.readTree(history.dir().resolve("index.json").toFile());
        assertThat(index.get("runs")).hasSize(2);
    }

    @Test
    void anAppendCutOffBeforeTheIndexIsCompletedByRunningItAgain() throws Exception {
        Path complete = root.resolve("complete");
        Path interrupted = root.resolve("interrupted");
        for (Path dir : List.of(complete, interrupted)) {
            new History(dir).append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        }
        new History(complete).append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        // Simulate a crash just before index.json was replaced: every other file already holds run-head.
        History cut = new History(interrupted);
        byte[] oldIndex = Files.readAllBytes(cut.dir().resolve("index.json"));
        cut.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        Files.write(cut.dir().resolve("index.json"), oldIndex);
        assertThat(JSON.readTree(oldIndex).get("runs")).hasSize(1);

        cut.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());

        Map<String, byte[]> expected = snapshot(new History(complete).dir());
        Map<String, byte[]> actual = snapshot(cut.dir());
        assertThat(actual.keySet()).isEqualTo(expected.keySet());
        actual.forEach((file, bytes) -> assertThat(new String(bytes, StandardCharsets.UTF_8)).as(file)
                .isEqualTo(new String(expected.get(file), StandardCharsets.UTF_8)));
    }

    @Test
    void writesIndexRunsByMonthLatestAndAnalysis() throws Exception {
        History history = new History(root);
        history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        history.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());
        history.append(RunFixtures.fixture("run-other-env"), History.AppendOptions.defaults());

        JsonNode index = JSON.readTree(history.dir().resolve("index.json").toFile());
        assertThat(index.get("schemaVersion").asInt()).isEqualTo(1);
        assertThat(index.get("runs")).extracting(r -> r.get("file").asText()).containsExactly(
                "runs/2026-11/20261120T214500Z-1a2b3c4.json", "runs/2026-11/20261120T224500Z-9f8e7d6.json",
                "runs/2026-12/20261121T001500Z-9f8e7d6.json");
        assertThat(index.get("runs").get(1).get("status").asText()).isEqualTo("failed");
        assertThat(Files.readAllBytes(history.dir().resolve("runs/2026-11/20261120T214500Z-1a2b3c4.json")))
                .isEqualTo(Files.readAllBytes(RunFixtures.fixture("run-base").resolve("run.json")));

        // The newest run has another fingerprint: no comparable baseline.
        JsonNode latest = JSON.readTree(history.dir().resolve("latest.json").toFile());
        assertThat(latest.get("runId").asText()).isEqualTo("20261121T001500Z-9f8e7d6");
        assertThat(latest.get("baseline").isNull()).isTrue();
        JsonNode metric = latest.get("cells").get(0).get("metrics").get("throughput");
        assertThat(metric.get("verdict").asText()).isEqualTo("no-verdict");
        assertThat(metric.get("baseline").isNull()).isTrue();
        assertThat(latest.get("variants").get(0).get("startup").get("time_to_ready_ms").get("unit").asText())
                .isEqualTo("ms");
    }

    @Test
    void latestComparesWithThePreviousComparableRun() throws Exception {
        History history = new History(root);
        history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        history.append(RunFixtures.fixture("run-head"), History.AppendOptions.defaults());

        JsonNode latest = JSON.readTree(history.dir().resolve("latest.json").toFile());
        assertThat(latest.get("baseline").get("runId").asText()).isEqualTo("20261120T214500Z-1a2b3c4");
        JsonNode jersey = latest.get("cells").get(0);
        assertThat(jersey.get("variant").asText()).isEqualTo("jersey");
        JsonNode throughput = jersey.get("metrics").get("throughput");
        // One comparable past run is no history: the change is shown, the verdict waits for ten.
        assertThat(throughput.get("verdict").asText()).isEqualTo("no-verdict");
        assertThat(throughput.get("reason").asText()).isEqualTo("1 comparable past run(s), a verdict needs 10");
        assertThat(throughput.get("deltaPct").asDouble()).isBetween(-15.0, -9.0);
        assertThat(throughput.get("baseline").get("runs").asInt()).isEqualTo(1);
        JsonNode failed = latest.get("cells").get(3);
        assertThat(failed.get("status").asText()).isEqualTo("failed");
        assertThat(failed.get("reason").asText()).startsWith("health check");
        assertThat(failed.get("metrics").isEmpty()).isTrue();
    }

    /** A cell never begun reaches the site as not measured, with its reason and no verdict: not as a failure. */
    @Test
    void aCellNotMeasuredReachesLatestJsonAsSuchWithoutAFailure(@TempDir Path tmp) throws Exception {
        Path head = tmp.resolve("run-head");
        Files.createDirectories(head);
        com.fasterxml.jackson.databind.node.ObjectNode run = (com.fasterxml.jackson.databind.node.ObjectNode)
                JSON.readTree(RunFixtures.fixture("run-head").resolve("run.json").toFile());
        com.fasterxml.jackson.databind.node.ObjectNode cell = (com.fasterxml.jackson.databind.node.ObjectNode)
                run.get("cells").get(3);
        cell.put("status", "not-measured").put("reason", "runtime: no JDK 25 on this machine");
        // A measured cell whose third start the budget left out: its warmup is the two measured starts'.
        com.fasterxml.jackson.databind.node.ArrayNode trials = ((com.fasterxml.jackson.databind.node.ObjectNode)
                run.get("cells").get(0)).putArray("trials");
        trials.addObject().put("trial", 0).put("round", 0).put("status", "ok").put("warmupSeconds", 30);
        trials.addObject().put("trial", 1).put("round", 1).put("status", "ok").put("warmupSeconds", 40);
        trials.addObject().put("trial", 2).put("round", 2).put("status", "not-measured").put("warmupSeconds", 0)
                .put("reason", "budget: not started");
        JSON.writeValue(head.resolve("run.json").toFile(), run);
        History history = new History(root);
        history.append(RunFixtures.fixture("run-base"), History.AppendOptions.defaults());
        history.append(head, History.AppendOptions.defaults());

        JsonNode notMeasured = JSON.readTree(history.dir().resolve("latest.json").toFile()).get("cells").get(3);
        assertThat(notMeasured.get("status").asText()).isEqualTo("not-measured");
        assertThat(notMeasured.get("reason").asText()).isEqualTo("runtime: no JDK 25 on this machine");
        assertThat(notMeasured.get("metrics").isEmpty()).isTrue();
        assertThat(notMeasured.path("verdict").asText("no-verdict")).isEqualTo("no-verdict");
        JsonNode warmup = JSON.readTree(history.dir().resolve("latest.json").toFile()).get("cells").get(0).get("warmup");
        assertThat(warmup.get("starts").asInt()).isEqualTo(2);
        assertThat(warmup.get("meanSeconds").asDouble()).isEqualTo(35.0);
    }

    @Test
    void analysisFindsAStepInTheHistoryNewestFirst() throws Exception {
        History history = new History(root);
        Random random = new Random(11);
        for (int i = 0; i < 20; i++) {
            double throughput = i < 12 ? 2000 : 1800;
            double p99 = i < 6 ? 10 : 12;
            ObjectNode run = RunFixtures.run(String.format("202611%02dT000000Z-c%02d", i + 1, i), "c" + i,
                    String.format("2026-11-%02dT00:00:00Z", i + 1), RunFixtures.FINGERPRINT, "quick",
                    Map.of("throughput", RunFixtures.normal(random, throughput, 0.01, 5),
                            "latency_p99", RunFixtures.normal(random, p99, 0.01, 5)));
            history.append(RunFixtures.record(run), JSON.writeValueAsBytes(run), History.AppendOptions.defaults());
        }

        JsonNode analysis = JSON.readTree(history.dir().resolve("analysis.json").toFile());
        assertThat(analysis.get("generatedAt").asText()).isEqualTo("2026-11-20T00:00:00Z");
        JsonNode throughput = analysis.get("series").get("jersey/read-heavy/latency/throughput");
        assertThat(throughput.get("direction").asText()).isEqualTo("bigger");
        assertThat(throughput.get("changePoints")).singleElement().satisfies(cp -> {
            assertThat(cp.get("index").asInt()).isEqualTo(12);
            assertThat(cp.get("commit").asText()).isEqualTo("c12");
            assertThat(cp.get("kind").asText()).isEqualTo("regression");
            assertThat(cp.get("deltaPct").asDouble()).isBetween(-12.0, -8.0);
        });
        JsonNode p99 = analysis.get("series").get("jersey/read-heavy/latency/latency_p99");
        assertThat(p99.get("changePoints")).singleElement()
                .satisfies(cp -> assertThat(cp.get("index").asInt()).isEqualTo(6));
        assertThat(analysis.get("regressions")).extracting(r -> r.get("commit").asText())
                .containsExactly("c12", "c6");
        assertThat(analysis.get("regressions").get(0).get("source").asText()).isEqualTo("change-point");
    }

    /**
     * The planner's runs per request are shown, never judged: a service that prepares its statements plans 0.001 per
     * request in one stretch of runs and 0.003 in the next (a connection's first plans), a "+200 %" step of nothing.
     * Judged as every other series, the site would list it among the regressions.
     */
    @Test
    void aMetricShownOnlyGetsNoChangePoints() throws Exception {
        History history = new History(root);
        Random random = new Random(7);
        for (int i = 0; i < 20; i++) {
            ObjectNode run = RunFixtures.run(String.format("202611%02dT000000Z-c%02d", i + 1, i), "c" + i,
                    String.format("2026-11-%02dT00:00:00Z", i + 1), RunFixtures.FINGERPRINT, "quick",
                    Map.of("sql_plans_per_req", RunFixtures.normal(random, i < 10 ? 0.001 : 0.003, 0.05, 5),
                            "throughput", RunFixtures.normal(random, i < 10 ? 2000 : 1800, 0.01, 5)));
            ArrayNode definitions = run.putArray("metricDefinitions");
            for (String id : List.of("sql_plans_per_req", "throughput")) {
                dev.restbench.manifest.Manifest.MetricDefinition m = RunFixtures.metric(id);
                ObjectNode d = definitions.addObject().put("id", id).put("label", m.label()).put("unit", m.unit())
                        .put("direction", m.direction()).put("scope", m.scope()).put("description", "")
                        .put("minEffectPct", m.minEffectPct());
                d.putArray("primary");
                if (m.shownOnly() != null) {
                    d.put("shownOnly", m.shownOnly());
                }
            }
            history.append(RunFixtures.record(run), JSON.writeValueAsBytes(run), History.AppendOptions.defaults());
        }

        JsonNode analysis = JSON.readTree(history.dir().resolve("analysis.json").toFile());
        assertThat(analysis.get("series").get("jersey/read-heavy/latency/sql_plans_per_req").get("changePoints"))
                .isEmpty();
        assertThat(analysis.get("series").get("jersey/read-heavy/latency/throughput").get("changePoints")).hasSize(1);
        assertThat(analysis.get("regressions")).extracting(r -> r.get("series").asText())
                .containsExactly("jersey/read-heavy/latency/throughput");
    }

    @Test
    void refusesWhatIsNotARun() throws IOException {
        Path bogus = root.resolve("bogus");
        Files.createDirectories(bogus);
        Files.writeString(bogus.resolve("run.json"), "{\"runId\": \"x\"}");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new History(root.resolve("h"))
                        .append(bogus, History.AppendOptions.defaults()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("lacks \"status\"");
        assertThat(root.resolve("h")).doesNotExist();
    }

    private static void assertFields(JsonNode node, Map<String, JsonNodeType> expected) {
        assertThat(names(node)).containsExactlyInAnyOrderElementsOf(expected.keySet());
        expected.forEach((name, type) -> assertThat(node.get(name).getNodeType()).as(name).isEqualTo(type));
    }

    private static List<String> names(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Map<String, byte[]> snapshot(Path dir) throws IOException {
        Map<String, byte[]> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                files.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return files;
    }

    private static boolean nodeAvailable() {
        try {
            return new ProcessBuilder("node", "--version").start().waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
