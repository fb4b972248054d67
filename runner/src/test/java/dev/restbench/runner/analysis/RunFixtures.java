package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.util.Map;
import java.util.Random;

/** Builds run.json documents in the runner's shape, with deterministic values, for tests. */
public final class RunFixtures {

    public static final String FINGERPRINT = "sha256:3f9a1c0d5e7b2a4c6e8f0a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d";
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private RunFixtures() {
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
     * A run with one cell (jersey/read-heavy/latency) holding the given metrics (id -> values); the
     * direction comes from the metric catalogue.
     */
    public static ObjectNode run(String runId, String commit, String finishedAt, String fingerprint, String profile,
                                 Map<String, double[]> metrics) {
        ObjectNode run = NODES.objectNode();
        run.put("schemaVersion", 1);
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
        run.putArray("variants");
        ArrayNode cells = run.putArray("cells");
        ObjectNode cell = cells.addObject();
        cell.put("variant", "jersey");
        cell.put("scenario", "read-heavy");
        cell.put("regime", "latency");
        cell.put("status", "ok");
        cell.putNull("reason");
        cell.putArray("repetitions");
        ObjectNode metricsNode = cell.putObject("metrics");
        metrics.forEach((id, values) -> {
            MetricCatalog.Metric metric = MetricCatalog.lookup(id);
            Stats.Summary summary = Stats.summarize(values);
            ObjectNode m = metricsNode.putObject(id);
            m.put("unit", metric.unit());
            m.put("direction", metric.direction().json());
            m.put("n", summary.n());
            m.put("median", summary.median());
            m.put("min", summary.min());
            m.put("max", summary.max());
            m.put("spreadPct", summary.spreadPct());
            ArrayNode array = m.putArray("values");
            for (double v : values) {
                array.add(v);
            }
        });
        return run;
    }

    public static RunRecord record(ObjectNode run) {
        return RunRecord.of(run, "fixture");
    }
}
