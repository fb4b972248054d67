package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A finished run as read from results/&lt;run-id&gt;/run.json (shape in docs/ARCHITECTURE.md), flattened into
 * series points for the statistics. The raw JSON is kept so the history stores the record unchanged.
 */
public final class RunRecord {

    /**
     * A cell's (or a variant's startup) values for one metric; values is empty for a failed cell. Since run.json v2
     * each value is one start's mean over its windows: {@code rounds} says in which round of the run that start was
     * (for pairing A/B starts), {@code windows} holds each start's window values (empty arrays for startup metrics and
     * older records); {@code steady} and {@code bottleneck} are the cell's.
     */
    public record Point(String variant, String scenario, String regime, String metric, String unit,
                        Direction direction, boolean primary, boolean ok, String reason, double[] values, int[] rounds,
                        double[][] windows, boolean steady, String bottleneck) {

        public String seriesKey() {
            return variant + "/" + scenario + "/" + regime + "/" + metric;
        }

        public String cellKey() {
            return variant + "/" + scenario + "/" + regime;
        }

        /** Each start's value by the round it ran in (what paired comparisons match on). */
        public Map<Integer, Double> byRound() {
            Map<Integer, Double> out = new LinkedHashMap<>();
            for (int i = 0; i < values.length; i++) {
                out.put(rounds[i], values[i]);
            }
            return out;
        }
    }

    public static final String STARTUP_SCENARIO = "startup";
    public static final String STARTUP_REGIME = "-";


    private final ObjectNode raw;

    private RunRecord(ObjectNode raw) {
        this.raw = raw;
    }

    /** Reads a run from a results directory (containing run.json) or from a run.json file itself. */
    public static RunRecord read(Path dirOrFile) throws IOException {
        Path file = Files.isDirectory(dirOrFile) ? dirOrFile.resolve("run.json") : dirOrFile;
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException("no run.json at " + file);
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new IllegalArgumentException(file + " is not valid JSON: " + e.getMessage(), e);
        }
        return of(node, file.toString());
    }

    public static RunRecord of(JsonNode node, String source) {
        if (!(node instanceof ObjectNode object)) {
            throw new IllegalArgumentException(source + ": run.json must be an object");
        }
        for (String field : List.of("runId", "status", "profile", "commit", "environment")) {
            if (!object.hasNonNull(field)) {
                throw new IllegalArgumentException(source + ": run.json lacks \"" + field + "\"");
            }
        }
        if (!object.path("environment").hasNonNull("fingerprint")) {
            throw new IllegalArgumentException(source + ": run.json lacks environment.fingerprint");
        }
        return new RunRecord(object);
    }

    public ObjectNode raw() {
        return raw;
    }

    public String runId() {
        return raw.path("runId").asText();
    }

    public boolean ok() {
        return "ok".equals(raw.path("status").asText());
    }

    public String status() {
        return raw.path("status").asText();
    }

    public String profile() {
        return raw.path("profile").asText();
    }

    public String fingerprint() {
        return raw.path("environment").path("fingerprint").asText();
    }

    public JsonNode environment() {
        return raw.path("environment");
    }

    public JsonNode commit() {
        return raw.path("commit");
    }

    public String commitId() {
        return raw.path("commit").path("id").asText("");
    }

    /** When the run finished (falls back to its start), ISO-8601 text as written by the runner. */
    public String finishedAt() {
        String finished = raw.path("finishedAt").asText("");
        return finished.isEmpty() ? raw.path("startedAt").asText("") : finished;
    }

    public String startedAt() {
        String started = raw.path("startedAt").asText("");
        return started.isEmpty() ? finishedAt() : started;
    }

    /** Same fingerprint and profile: the only runs whose numbers may be compared. */
    public boolean comparableWith(RunRecord other) {
        return fingerprint().equals(other.fingerprint()) && profile().equals(other.profile());
    }

    /**
     * A metric's unit and direction as the run recorded them: its summary's own fields (cell metrics carry both),
     * else run.json's {@code metricDefinitions} (the manifest's catalogue as the run used it), else no unit and
     * smaller-is-better (a record older than both).
     */
    private String unit(String id, JsonNode summary) {
        return summary.path("unit").isTextual() ? summary.path("unit").asText()
                : definition(id).path("unit").asText("");
    }

    private Direction direction(String id, JsonNode summary) {
        String direction = summary.hasNonNull("direction") ? summary.path("direction").asText()
                : definition(id).path("direction").asText("smaller");
        return Direction.fromJson(direction);
    }

    private JsonNode definition(String id) {
        for (JsonNode definition : raw.path("metricDefinitions")) {
            if (id.equals(definition.path("id").asText())) {
                return definition;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** Every metric of every cell plus the startup metrics of every variant, in file order. */
    public List<Point> points() {
        List<Point> points = new ArrayList<>();
        for (JsonNode variant : raw.path("variants")) {
            String name = variant.path("name").asText();
            variant.path("startup").properties().forEach(entry -> {
                JsonNode summary = entry.getValue();
                String unit = unit(entry.getKey(), summary);
                Direction direction = direction(entry.getKey(), summary);
                double[] values = values(summary);
                // Paired by round where the record says it (a start that never got ready shifts the index).
                int[] rounds = summary.path("rounds").size() == values.length && values.length > 0
                        ? java.util.stream.StreamSupport.stream(summary.path("rounds").spliterator(), false)
                        .mapToInt(JsonNode::asInt).toArray() : sequence(values.length);
                points.add(new Point(name, STARTUP_SCENARIO, STARTUP_REGIME, entry.getKey(), unit, direction,
                        false, true, null, values, rounds, new double[0][], true, null));
            });
        }
        for (JsonNode cell : raw.path("cells")) {
            String variant = cell.path("variant").asText();
            String scenario = cell.path("scenario").asText();
            String regime = cell.path("regime").asText();
            boolean ok = "ok".equals(cell.path("status").asText());
            String reason = cell.path("reason").isNull() ? null : cell.path("reason").asText(null);
            if (!ok) {
                // A failed cell has no metrics; keep one marker point so reports can show the failure.
                points.add(new Point(variant, scenario, regime, null, null, null, true, false,
                        reason == null ? "failed" : reason, new double[0], new int[0], new double[0][], false, null));
                continue;
            }
            int[] rounds = rounds(cell);
            boolean steady = !cell.has("steady") || cell.path("steady").asBoolean();
            String bottleneck = cell.path("bottleneck").isTextual() ? cell.path("bottleneck").asText() : null;
            cell.path("metrics").properties().forEach(entry -> {
                JsonNode summary = entry.getValue();
                String unit = unit(entry.getKey(), summary);
                Direction direction = direction(entry.getKey(), summary);
                double[] values = values(summary);
                points.add(new Point(variant, scenario, regime, entry.getKey(), unit, direction,
                        summary.path("primary").asBoolean(false), true, null,
                        values, rounds.length == values.length ? rounds : sequence(values.length),
                        windows(summary), steady, bottleneck));
            });
        }
        return points;
    }

    /**
     * The round of each measured start of a cell (run.json v2), in the order of its values: a start that failed in a
     * cell that kept its other starts' figures (an A/B's, recorded per start) has no value.
     */
    private static int[] rounds(JsonNode cell) {
        List<Integer> rounds = new ArrayList<>();
        JsonNode trials = cell.path("trials");
        for (int i = 0; i < trials.size(); i++) {
            if (!"failed".equals(trials.get(i).path("status").asText())) {
                rounds.add(trials.get(i).path("round").asInt(i));
            }
        }
        return rounds.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Why this run's verdicts must be withheld, from the host's self-check it recorded ({@code hostCheck}: the
     * calibration probe's change between the start and the end, steal on the service's core, other work on it during
     * a start), against the limits recorded with them; null when the run recorded none or they held. Recomputed from
     * the numbers, never taken as text from the record.
     */
    public String hostProblem() {
        JsonNode check = raw.path("hostCheck");
        JsonNode limits = check.path("limits");
        double change = check.path("changePct").asDouble(0);
        if (check.path("changePct").isNumber() && Math.abs(change) > limits.path("probeChangePct").asDouble(10)) {
            return String.format(java.util.Locale.ROOT, "the host's calibration probe moved %+.1f %% during the run",
                    change);
        }
        if (check.path("stealPct").isNumber() && check.path("stealPct").asDouble() > limits.path("stealPct").asDouble(2)) {
            return String.format(java.util.Locale.ROOT, "the hypervisor took %.1f %% of the service's core (steal)",
                    check.path("stealPct").asDouble());
        }
        if (check.path("othersPct").isNumber()
                && check.path("othersPct").asDouble() > limits.path("othersPct").asDouble(10)) {
            String where = check.path("othersWhere").asText("");
            return String.format(java.util.Locale.ROOT, "other work took %.0f %% of the service's core during a"
                    + " start%s", check.path("othersPct").asDouble(),
                    where.matches("[a-z0-9/ -]{1,200}") ? " (" + where.replace("--", " ") + ")" : "");
        }
        return null;
    }

    /** One start of a cell: the round it ran in, and why it failed (null when it was measured). */
    public record Start(int round, String failure) {
    }

    /**
     * Every start of every cell, by {@link Point#cellKey()}, whether it was measured or failed: what an A/B tests its
     * failures on, round by round. A record without trials (older than run.json v2) has none.
     */
    public Map<String, List<Start>> starts() {
        Map<String, List<Start>> starts = new LinkedHashMap<>();
        for (JsonNode cell : raw.path("cells")) {
            String key = cell.path("variant").asText() + "/" + cell.path("scenario").asText() + "/"
                    + cell.path("regime").asText();
            List<Start> list = new ArrayList<>();
            JsonNode trials = cell.path("trials");
            for (int i = 0; i < trials.size(); i++) {
                JsonNode trial = trials.get(i);
                boolean failed = "failed".equals(trial.path("status").asText());
                list.add(new Start(trial.path("round").asInt(i), failed
                        ? trial.path("reason").asText("failed") : null));
            }
            starts.put(key, list);
        }
        return starts;
    }

    private static int[] sequence(int n) {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = i;
        }
        return out;
    }

    /** Each start's window values (run.json v2); none for older records. */
    private static double[][] windows(JsonNode summary) {
        JsonNode windows = summary.path("windows");
        double[][] out = new double[windows.size()][];
        for (int i = 0; i < out.length; i++) {
            JsonNode trial = windows.get(i);
            out[i] = new double[trial.size()];
            for (int k = 0; k < trial.size(); k++) {
                out[i][k] = trial.get(k).asDouble();
            }
        }
        return out;
    }

    /** The repetition values, or the median alone when an older record has no values array. */
    private static double[] values(JsonNode summary) {
        JsonNode values = summary.path("values");
        if (values.isArray() && !values.isEmpty()) {
            double[] out = new double[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = values.get(i).asDouble();
            }
            return out;
        }
        if (summary.path("median").isNumber()) {
            return new double[] {summary.path("median").asDouble()};
        }
        return new double[0];
    }
}
