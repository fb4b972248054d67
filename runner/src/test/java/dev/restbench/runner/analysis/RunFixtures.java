package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.stats.Summary;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/** Builds run.json documents in the runner's shape (v2: cells with starts and windows), deterministic, for tests. */
public final class RunFixtures {

    public static final String FINGERPRINT = "sha256:3f9a1c0d5e7b2a4c6e8f0a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d";
    /** The primary metrics of the capacity regime, as benchmarks.json declares them. */
    public static final Set<String> PRIMARY = Set.of("throughput", "cpu_us_per_req", "alloc_bytes_per_req",
            "sql_statements_per_req");
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RunFixtures() {
    }

    private static final dev.restbench.manifest.Manifest MANIFEST = dev.restbench.runner.manifest.Manifests.load(
            Path.of(System.getProperty("restbench.root", "..")).resolve("benchmarks.json"));

    /** The repository's metric catalogue as the verdict reads it (benchmarks.json at the checkout's root). */
    public static MetricRules catalogue() {
        return MetricRules.of(MANIFEST);
    }

    /** A metric's entry in the repository's catalogue: its unit and direction, as the runner writes them. */
    public static dev.restbench.manifest.Manifest.MetricDefinition metric(String id) {
        return MANIFEST.metric(id);
    }

    public static Path fixture(String name) {
        return Path.of("src/test/resources/fixtures", name);
    }

    /** n normally distributed values around mean with a relative standard deviation. */
    public static double[] normal(Random random, double mean, double relativeSd, int n) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = mean * (1 + relativeSd * random.nextGaussian());
        }
        return values;
    }

    /**
     * A run with one cell (jersey/read-heavy/latency) holding the given metrics (id -> one value per start, each
     * start one window); the direction comes from the metric catalogue.
     */
    public static ObjectNode run(String runId, String commit, String finishedAt, String fingerprint, String profile,
                                 Map<String, double[]> metrics) {
        ObjectNode run = empty(runId, commit, finishedAt, fingerprint, profile);
        Map<String, double[][]> windows = new java.util.LinkedHashMap<>();
        int starts = 0;
        for (Map.Entry<String, double[]> e : metrics.entrySet()) {
            double[][] perStart = new double[e.getValue().length][];
            for (int i = 0; i < perStart.length; i++) {
                perStart[i] = new double[] {e.getValue()[i]};
            }
            windows.put(e.getKey(), perStart);
            starts = perStart.length;
        }
        int[] rounds = new int[starts];
        for (int i = 0; i < starts; i++) {
            rounds[i] = i;
        }
        cell(run, "jersey", "read-heavy", "latency", windows, rounds);
        return run;
    }

    /** A run without cells. */
    public static ObjectNode empty(String runId, String commit, String finishedAt, String fingerprint, String profile) {
        ObjectNode run = NODES.objectNode();
        run.put("schemaVersion", 2);
        run.put("runId", runId);
        run.put("status", "ok");
        run.put("profile", profile);
        run.put("startedAt", finishedAt);
        run.put("finishedAt", finishedAt);
        ObjectNode commitNode = run.putObject("commit");
        commitNode.put("id", commit);
        commitNode.put("message", "commit " + commit);
        commitNode.put("author", "Ada Lovelace <ada@example.org>");
        commitNode.put("timestamp", finishedAt);
        commitNode.putNull("url");
        commitNode.put("dirty", false);
        ObjectNode env = run.putObject("environment");
        env.put("fingerprint", fingerprint);
        env.put("cpuCount", 2);
        run.putObject("plan").put("seed", 1);
        run.putArray("variants");
        run.putArray("cells");
        return run;
    }

    /**
     * Adds an ok cell: per metric, each start's window values; {@code rounds[i]} is the round of start i. Metrics in
     * {@link #PRIMARY} are primary in the capacity regime, latency_p99 in the latency regime.
     */
    public static ObjectNode cell(ObjectNode run, String variant, String scenario, String regime,
                                  Map<String, double[][]> metrics, int[] rounds) {
        ObjectNode cell = ((ArrayNode) run.get("cells")).addObject();
        cell.put("variant", variant);
        cell.put("scenario", scenario);
        cell.put("regime", regime);
        cell.put("status", "ok");
        cell.putNull("reason");
        cell.put("steady", true);
        cell.put("bottleneck", "service");
        ArrayNode trials = cell.putArray("trials");
        for (int i = 0; i < rounds.length; i++) {
            ObjectNode trial = trials.addObject();
            trial.put("trial", i);
            trial.put("round", rounds[i]);
            trial.put("status", "ok");
            trial.put("steady", true);
        }
        ObjectNode metricsNode = cell.putObject("metrics");
        metrics.forEach((id, windows) -> {
            dev.restbench.manifest.Manifest.MetricDefinition metric = metric(id);
            double[] perStart = new double[windows.length];
            for (int i = 0; i < windows.length; i++) {
                perStart[i] = Summary.center(windows[i]);
            }
            Summary summary = Summary.of(perStart);
            ObjectNode m = metricsNode.putObject(id);
            m.put("unit", metric.unit());
            m.put("direction", metric.direction());
            m.put("primary", regime.equals("capacity") ? PRIMARY.contains(id) : id.equals("latency_p99"));
            m.put("n", summary.n());
            m.put("value", summary.value());
            m.put("median", summary.median());
            m.put("min", summary.min());
            m.put("max", summary.max());
            m.put("spreadPct", summary.spreadPct());
            ArrayNode values = m.putArray("values");
            ArrayNode windowsNode = m.putArray("windows");
            for (int i = 0; i < windows.length; i++) {
                values.add(perStart[i]);
                ArrayNode w = windowsNode.addArray();
                for (double v : windows[i]) {
                    w.add(v);
                }
            }
        });
        return cell;
    }

    /** Adds a failed cell. */
    public static void failedCell(ObjectNode run, String variant, String scenario, String regime, String reason) {
        cellWithoutNumbers(run, variant, scenario, regime, "failed", reason);
        run.put("status", "failed");
    }

    /** A cell with a status other than ok: its reason, no metrics, no starts. */
    private static ObjectNode cellWithoutNumbers(ObjectNode run, String variant, String scenario, String regime,
                                                 String status, String reason) {
        ObjectNode cell = ((ArrayNode) run.get("cells")).addObject();
        cell.put("variant", variant);
        cell.put("scenario", scenario);
        cell.put("regime", regime);
        cell.put("status", status);
        cell.put("reason", reason);
        cell.put("steady", false);
        cell.putNull("bottleneck");
        cell.putArray("trials");
        return cell;
    }

    /**
     * A cell never begun (its runtime not on the machine, or no budget left), as the runner records it: status
     * not-measured with the reason, its start not-measured too, no metrics. The run's status is left as it is.
     */
    public static void notMeasuredCell(ObjectNode run, String variant, String scenario, String regime, String reason) {
        ObjectNode cell = cellWithoutNumbers(run, variant, scenario, regime, "not-measured", reason);
        ((ArrayNode) cell.get("trials")).addObject()
                .put("trial", 0).put("round", 0).put("status", "not-measured").put("reason", reason);
    }

    /** Marks the cell's start in {@code round} failed, as ./bench ab records a failed start (its figures gone). */
    public static void failStart(ObjectNode cell, int round, String reason) {
        for (com.fasterxml.jackson.databind.JsonNode trial : cell.path("trials")) {
            if (trial.path("round").asInt() == round) {
                ((ObjectNode) trial).put("status", "failed").put("reason", reason);
            }
        }
    }

    public static RunRecord record(ObjectNode run) {
        return RunRecord.of(run, "fixture");
    }
}
