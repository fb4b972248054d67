package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.io.Json;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.StreamSupport;

/**
 * A finished run as read from results/&lt;run-id&gt;/run.json, flattened into series points for the statistics, with
 * views of its cells, starts, variants and comparisons for everything else that reads a run. This class is the one
 * place that names run.json's fields on the reading side: each name is declared once below, by where it sits, and
 * RunRecordSchemaTest checks that every one of them is declared at that place in run.schema.json, the shape's one
 * home (the runner's tests validate what ResultsWriter writes against the same schema). The raw JSON is kept so the
 * history stores the record unchanged.
 */
public final class RunRecord {

    private static final Map<String, Set<String>> READS = new TreeMap<>();

    /** Run.json's fields as read here and by the code that edits a record (merge, interleaved parts, drills). */
    public static final String RUN_ID = field("", "runId");
    public static final String STATUS = field("", "status");
    public static final String PROFILE = field("", "profile");
    public static final String STARTED_AT = field("", "startedAt");
    public static final String FINISHED_AT = field("", "finishedAt");
    public static final String COMMIT = field("", "commit");
    public static final String ENVIRONMENT = field("", "environment");
    public static final String HOST_CHECK = field("", "hostCheck");
    public static final String METHOD = field("", "method");
    public static final String METRIC_DEFINITIONS = field("", "metricDefinitions");
    private static final String METHOD_WINDOWS_PER_CELL = field("/method", "windowsPerCell");
    public static final String VARIANTS = field("", "variants");
    public static final String CELLS = field("", "cells");
    public static final String COMPARISONS = field("", "comparisons");
    public static final String TIMINGS = field("", "timings");

    public static final String COMMIT_ID = field("/commit", "id");
    public static final String COMMIT_MESSAGE = field("/commit", "message");
    public static final String COMMIT_AUTHOR = field("/commit", "author");
    public static final String COMMIT_TIMESTAMP = field("/commit", "timestamp");
    public static final String COMMIT_URL = field("/commit", "url");
    public static final String FINGERPRINT = field("/environment", "fingerprint");
    public static final String CPU_MODEL = field("/environment", "cpuModel");
    public static final String CPU_COUNT = field("/environment", "cpuCount");
    public static final String HARNESS_VERSION = field("/environment", "harnessVersion");
    public static final String PINNING = field("/environment", "pinning");
    /** The environment as the PR comment prints it, in this order. */
    public static final List<String> ENVIRONMENT_SHOWN = List.of(CPU_MODEL, CPU_COUNT, field("/environment", "os"),
            field("/environment", "kernel"), field("/environment", "jdk"), field("/environment", "postgres"),
            HARNESS_VERSION);
    /** The hashes of the method and the manifest, which the fingerprint includes. */
    public static final List<String> ENVIRONMENT_HASHES = List.of(field("/environment", "methodHash"),
            field("/environment", "manifestHash"));

    private static final String HOST_CHANGE_PCT = field("/hostCheck", "changePct");
    private static final String HOST_STEAL_PCT = field("/hostCheck", "stealPct");
    public static final String HOST_OTHERS_PCT = field("/hostCheck", "othersPct");
    public static final String HOST_OTHERS_WHERE = field("/hostCheck", "othersWhere");
    private static final String HOST_LIMITS = field("/hostCheck", "limits");
    private static final String LIMIT_PROBE_CHANGE_PCT = field("/hostCheck/limits", "probeChangePct");
    private static final String LIMIT_STEAL_PCT = field("/hostCheck/limits", "stealPct");
    private static final String LIMIT_OTHERS_PCT = field("/hostCheck/limits", "othersPct");

    /** A metric definition's fields: the manifest's catalogue entry as the run used it. */
    public static final String DEFINITION_ID = field("/metricDefinitions/*", "id");
    public static final String DEFINITION_NAME = field("/metricDefinitions/*", "name");
    public static final String DEFINITION_LABEL = field("/metricDefinitions/*", "label");
    public static final String DEFINITION_UNIT = field("/metricDefinitions/*", "unit");
    public static final String DEFINITION_DIRECTION = field("/metricDefinitions/*", "direction");
    public static final String DEFINITION_SCOPE = field("/metricDefinitions/*", "scope");
    public static final String DEFINITION_VERSION = field("/metricDefinitions/*", "version");
    public static final String DEFINITION_MIN_EFFECT_PCT = field("/metricDefinitions/*", "minEffectPct");
    public static final String DEFINITION_DISCRETE = field("/metricDefinitions/*", "discrete");
    public static final String DEFINITION_RECIPROCAL_OF = field("/metricDefinitions/*", "reciprocalOf");
    public static final String DEFINITION_HOST_INDEPENDENT = field("/metricDefinitions/*", "hostIndependent");
    public static final String DEFINITION_ADJUSTED_BY = field("/metricDefinitions/*", "adjustedBy");
    public static final String DEFINITION_CROSS_CHECKED_BY = field("/metricDefinitions/*", "crossCheckedBy");
    public static final String DEFINITION_SHOWN_ONLY = field("/metricDefinitions/*", "shownOnly");
    public static final String DEFINITION_TABLES = field("/metricDefinitions/*", "tables");

    /** The method's starts per variant: what parts of one drill may differ in. */
    public static final String METHOD_STARTS_PER_VARIANT = field("/method", "startsPerVariant");
    private static final String PLAN = field("", "plan");
    private static final String PLAN_ROUNDS = field("/plan", "rounds");
    private static final String PLAN_ORDER = field("/plan", "order");
    /** Keys of {@code timings}, a map (the schema names its keys in its description, not as properties). */
    public static final String TIMING_TOTAL_S = "totalS";
    public static final String TIMING_POSTGRES_AND_DATASET_S = "postgresAndDatasetS";
    public static final String TIMING_MEASURED_WINDOWS_S = "measuredWindowsS";

    public static final String VARIANT_NAME = field("/variants/*", "name");
    private static final String VARIANT_LABEL = field("/variants/*", "label");
    private static final String VARIANT_DESCRIPTION = field("/variants/*", "description");
    private static final String VARIANT_CLASSIFICATION = field("/variants/*", "classification");
    private static final String VARIANT_FAULTS = field("/variants/*", "faults");
    public static final String VARIANT_STARTUP = field("/variants/*", "startup");

    public static final String CELL_VARIANT = field("/cells/*", "variant");
    public static final String CELL_SCENARIO = field("/cells/*", "scenario");
    public static final String CELL_REGIME = field("/cells/*", "regime");
    public static final String CELL_STATUS = field("/cells/*", "status");
    public static final String CELL_REASON = field("/cells/*", "reason");
    /** The status of a cell or a start never begun (run.schema.json): neither "ok" nor "failed". */
    public static final String NOT_MEASURED = "not-measured";
    private static final String CELL_STEADY = field("/cells/*", "steady");
    public static final String CELL_BOTTLENECK = field("/cells/*", "bottleneck");
    public static final String CELL_METRICS = field("/cells/*", "metrics");
    public static final String CELL_TRIALS = field("/cells/*", "trials");
    public static final String CELL_LACKING = field("/cells/*", "lacking");
    public static final String LACKING_WHERE = field("/cells/*/lacking/*", "where");
    public static final String LACKING_ROUND = field("/cells/*/lacking/*", "round");

    public static final String TRIAL_INDEX = field("/cells/*/trials/*", "trial");
    public static final String TRIAL_ROUND = field("/cells/*/trials/*", "round");
    public static final String TRIAL_UTILISATION = field("/cells/*/trials/*", "utilisation");
    public static final String UTILISATION_OTHERS = field("/cells/*/trials/*/utilisation", "others");
    public static final String TRIAL_STATUS = field("/cells/*/trials/*", "status");
    public static final String TRIAL_BOTTLENECK = field("/cells/*/trials/*", "bottleneck");
    public static final String TRIAL_REASON = field("/cells/*/trials/*", "reason");
    public static final String TRIAL_WARMUP_SECONDS = field("/cells/*/trials/*", "warmupSeconds");
    private static final String TRIAL_STEADY = field("/cells/*/trials/*", "steady");
    private static final String TRIAL_FLAME_GRAPHS = field("/cells/*/trials/*", "flameGraphs");
    private static final String FLAME_GRAPH_CPU = field("/cells/*/trials/*/flameGraphs", "cpu");
    private static final String FLAME_GRAPH_ALLOC = field("/cells/*/trials/*/flameGraphs", "alloc");

    /** A summary's figure (the geometric mean over its starts) and its number of starts. */
    public static final String SUMMARY_VALUE = field("/cells/*/metrics/*", "value");
    public static final String SUMMARY_N = field("/cells/*/metrics/*", "n");
    /** A cell summary's interval and variance components, as ResultsWriter computed them. */
    public static final List<String> SUMMARY_ESTIMATES = List.of(field("/cells/*/metrics/*", "ci95"),
            field("/cells/*/metrics/*", "ciCovers"), field("/cells/*/metrics/*", "betweenStartCvPct"),
            field("/cells/*/metrics/*", "withinStartCvPct"));
    private static final String SUMMARY_UNIT = field("/cells/*/metrics/*", "unit");
    private static final String SUMMARY_DIRECTION = field("/cells/*/metrics/*", "direction");
    private static final String SUMMARY_PRIMARY = field("/cells/*/metrics/*", "primary");
    public static final String SUMMARY_VALUES = field("/cells/*/metrics/*", "values");
    private static final String SUMMARY_MEDIAN = field("/cells/*/metrics/*", "median");
    public static final String SUMMARY_WINDOWS = field("/cells/*/metrics/*", "windows");
    public static final String SUMMARY_ROUNDS = field("/variants/*/startup/*", "rounds");

    private static final String COMPARISON_SCENARIO = field("/comparisons/*", "scenario");
    private static final String COMPARISON_KIND = field("/comparisons/*", "kind");
    private static final String COMPARISON_KEY = field("/comparisons/*", "key");
    private static final String COMPARISON_VALUE = field("/comparisons/*", "value");
    private static final String COMPARISON_REGIME = field("/comparisons/*", "regime");
    private static final String COMPARISON_METRIC = field("/comparisons/*", "metric");
    private static final String COMPARISON_BEST = field("/comparisons/*", "best");
    private static final String COMPARISON_RATIOS = field("/comparisons/*", "ratios");
    private static final String RATIO_VARIANT = field("/comparisons/*/ratios/*", "variant");
    private static final String RATIO_RATIO = field("/comparisons/*/ratios/*", "ratio");
    private static final String RATIO_CI95 = field("/comparisons/*/ratios/*", "ci95");
    private static final String RATIO_CI_COVERS = field("/comparisons/*/ratios/*", "ciCovers");

    private static String field(String where, String name) {
        READS.computeIfAbsent(where, k -> new TreeSet<>()).add(name);
        return name;
    }

    /**
     * Every field this class names, by where it sits in run.json: a JSON pointer whose {@code *} steps into an array's
     * items or an object's values (as the schema's items and additionalProperties).
     */
    static Map<String, Set<String>> fieldsRead() {
        return Collections.unmodifiableMap(READS);
    }

    /**
     * A cell's (or a variant's startup) values for one metric; values is empty for a failed cell. Since run.json v2
     * each value is one start's mean over its windows: {@code rounds} says in which round of the run that start was
     * (for pairing A/B starts), {@code windows} holds each start's window values (empty arrays for startup metrics and
     * older records); {@code steady} and {@code bottleneck} are the cell's.
     */
    public record Point(String variant, String scenario, String regime, String metric, String unit,
                        Direction direction, boolean primary, boolean ok, String reason, double[] values, int[] rounds,
                        double[][] windows, boolean steady, String bottleneck, boolean notMeasured) {

        public Point(String variant, String scenario, String regime, String metric, String unit, Direction direction,
                     boolean primary, boolean ok, String reason, double[] values, int[] rounds, double[][] windows,
                     boolean steady, String bottleneck) {
            this(variant, scenario, regime, metric, unit, direction, primary, ok, reason, values, rounds, windows,
                    steady, bottleneck, false);
        }

        /** The marker of a failed cell: not ok, and begun (a cell never begun is {@link #notMeasured}). */
        public boolean failed() {
            return !ok && !notMeasured;
        }

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

    /** A variant as the run recorded it ({@code variants[]}): its name, labels and startup metrics. */
    public static final class Variant {
        private final JsonNode node;

        private Variant(JsonNode node) {
            this.node = node;
        }

        public String name() {
            return node.path(VARIANT_NAME).asText();
        }

        /** Its display label, or null in a record written before labels existed. */
        public String label() {
            return text(node, VARIANT_LABEL);
        }

        public String description() {
            return text(node, VARIANT_DESCRIPTION);
        }

        /** Its classification (framework, dataAccess, …); an empty object when the record has none. */
        public JsonNode classification() {
            return node.path(VARIANT_CLASSIFICATION);
        }

        /** Its classification as key → value. */
        public Map<String, String> labels() {
            Map<String, String> labels = new LinkedHashMap<>();
            classification().properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
            return labels;
        }

        /**
         * The fault switches it ran with (FAULT_* → value), sorted; empty when none was on or the record predates
         * them (2026-12-08).
         */
        public Map<String, String> faults() {
            Map<String, String> faults = new TreeMap<>();
            node.path(VARIANT_FAULTS).properties().forEach(e -> faults.put(e.getKey(), e.getValue().asText()));
            return faults;
        }

        /** One startup metric's summary (missing when not recorded). */
        public JsonNode startup(String metric) {
            return node.path(VARIANT_STARTUP).path(metric);
        }

        public JsonNode raw() {
            return node;
        }
    }

    /** A cell as the run recorded it ({@code cells[]}). */
    public static final class Cell {
        private final JsonNode node;

        private Cell(JsonNode node) {
            this.node = node;
        }

        public String variant() {
            return node.path(CELL_VARIANT).asText();
        }

        public String scenario() {
            return node.path(CELL_SCENARIO).asText();
        }

        public String regime() {
            return node.path(CELL_REGIME).asText();
        }

        /** variant/scenario/regime, as {@link Point#cellKey()}. */
        public String key() {
            return variant() + "/" + scenario() + "/" + regime();
        }

        public boolean ok() {
            return "ok".equals(node.path(CELL_STATUS).asText());
        }

        /**
         * None of its starts was begun, for a reason outside the variant (no runtime on the machine, no budget left):
         * neither a result nor a failure.
         */
        public boolean notMeasured() {
            return NOT_MEASURED.equals(node.path(CELL_STATUS).asText());
        }

        /** Neither measured nor left out: what a run's failure is made of. */
        public boolean failed() {
            return !ok() && !notMeasured();
        }

        /** "ok", "failed" or "not-measured" (run.schema.json); a word the schema lacks reads as failed. */
        public String status() {
            return ok() ? "ok" : notMeasured() ? NOT_MEASURED : "failed";
        }

        /** Why the cell failed or was not measured, or null. */
        public String reason() {
            return node.path(CELL_REASON).isNull() ? null : node.path(CELL_REASON).asText(null);
        }

        /** Steady unless the record says otherwise (records older than the steady-state rule say nothing). */
        public boolean steady() {
            return !node.has(CELL_STEADY) || node.path(CELL_STEADY).asBoolean();
        }

        /** What bound the cell, or null when the record names nothing. */
        public String bottleneck() {
            return text(node, CELL_BOTTLENECK);
        }

        /** The cell's summaries by metric id (empty for a failed cell). */
        public JsonNode metrics() {
            return node.path(CELL_METRICS);
        }

        /**
         * Where a metric the cell left out was missing ("start 5, window 3 of 3"), when some of its windows had it and
         * another did not; null otherwise (measured, or a meter the runtime lacks, or a record older than the field).
         * A record older than the lacking round holds the text alone.
         */
        public String lacking(String id) {
            JsonNode lacking = node.path(CELL_LACKING).path(id);
            return lacking.isTextual() ? lacking.asText() : text(lacking, LACKING_WHERE);
        }

        /** One metric's summary (missing when the cell has none). */
        public JsonNode metric(String id) {
            return node.path(CELL_METRICS).path(id);
        }

        /** One metric's figure (its summary's value), or null when the cell has none. */
        public Double value(String id) {
            JsonNode value = metric(id).path(SUMMARY_VALUE);
            return value.isNumber() ? value.asDouble() : null;
        }

        /** One metric's window values, start by start, or null when the record has none (older than v2). */
        public double[][] windows(String id) {
            return metric(id).path(SUMMARY_WINDOWS).isArray() ? RunRecord.windows(metric(id)) : null;
        }

        /** The cell's starts, measured or failed, in file order. */
        public List<Trial> trials() {
            List<Trial> trials = new ArrayList<>();
            JsonNode array = node.path(CELL_TRIALS);
            for (int i = 0; i < array.size(); i++) {
                trials.add(new Trial(array.get(i), i));
            }
            return trials;
        }

        public JsonNode raw() {
            return node;
        }
    }

    /** One start of a cell ({@code cells[].trials[]}). */
    public static final class Trial {
        private final JsonNode node;
        private final int index;

        private Trial(JsonNode node, int index) {
            this.node = node;
            this.index = index;
        }

        /** The round it ran in; its index in the cell for a record that does not say. */
        public int round() {
            return node.path(TRIAL_ROUND).asInt(index);
        }

        public boolean failed() {
            return "failed".equals(node.path(TRIAL_STATUS).asText());
        }

        /** Never begun (no runtime on the machine, no budget left): neither measured nor failed. */
        public boolean notMeasured() {
            return NOT_MEASURED.equals(node.path(TRIAL_STATUS).asText());
        }

        /** Measured: neither failed nor left out. */
        public boolean measured() {
            return !failed() && !notMeasured();
        }

        /** Why it failed ("failed" when the record gives no reason); null when it was measured. */
        public String failure() {
            return failed() ? node.path(TRIAL_REASON).asText("failed") : null;
        }

        /** Its warmup in seconds, or null when the record has none. */
        public Double warmupSeconds() {
            return node.path(TRIAL_WARMUP_SECONDS).isNumber() ? node.path(TRIAL_WARMUP_SECONDS).asDouble() : null;
        }

        /** Steady unless the record says otherwise. */
        public boolean steady() {
            return !node.has(TRIAL_STEADY) || node.path(TRIAL_STEADY).asBoolean();
        }

        /** The path of its CPU flame graph in the run directory, or null. */
        public String cpuFlameGraph() {
            return text(node.path(TRIAL_FLAME_GRAPHS), FLAME_GRAPH_CPU);
        }

        /** The path of its allocation flame graph in the run directory, or null. */
        public String allocFlameGraph() {
            return text(node.path(TRIAL_FLAME_GRAPHS), FLAME_GRAPH_ALLOC);
        }

        /** Its flameGraphs object as recorded (missing or null without one). */
        public JsonNode flameGraphs() {
            return node.path(TRIAL_FLAME_GRAPHS);
        }
    }

    /** One variant's ratio to the least in a {@link Comparison}; ci95 null when unbounded. */
    public record Ratio(String variant, double ratio, double[] ci95, String ciCovers) {
    }

    /** One of the run's CPU comparisons ({@code comparisons[]}): the least in a group and the others' ratios to it. */
    public record Comparison(String scenario, String kind, String key, String value, String regime, String metric,
                             String best, List<Ratio> ratios) {
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
        for (String field : List.of(RUN_ID, STATUS, PROFILE, COMMIT, ENVIRONMENT)) {
            if (!object.hasNonNull(field)) {
                throw new IllegalArgumentException(source + ": run.json lacks \"" + field + "\"");
            }
        }
        if (!object.path(ENVIRONMENT).hasNonNull(FINGERPRINT)) {
            throw new IllegalArgumentException(source + ": run.json lacks " + ENVIRONMENT + "." + FINGERPRINT);
        }
        return new RunRecord(object);
    }

    public ObjectNode raw() {
        return raw;
    }

    public String runId() {
        return raw.path(RUN_ID).asText();
    }

    public boolean ok() {
        return "ok".equals(raw.path(STATUS).asText());
    }

    public String status() {
        return raw.path(STATUS).asText();
    }

    public String profile() {
        return raw.path(PROFILE).asText();
    }

    public String fingerprint() {
        return raw.path(ENVIRONMENT).path(FINGERPRINT).asText();
    }

    public JsonNode environment() {
        return raw.path(ENVIRONMENT);
    }

    public JsonNode commit() {
        return raw.path(COMMIT);
    }

    public String commitId() {
        return raw.path(COMMIT).path(COMMIT_ID).asText("");
    }

    /** When the run finished (falls back to its start), ISO-8601 text as written by the runner. */
    public String finishedAt() {
        String finished = raw.path(FINISHED_AT).asText("");
        return finished.isEmpty() ? raw.path(STARTED_AT).asText("") : finished;
    }

    public String startedAt() {
        String started = raw.path(STARTED_AT).asText("");
        return started.isEmpty() ? finishedAt() : started;
    }

    /** Same fingerprint and profile: the only runs whose numbers may be compared. */
    public boolean comparableWith(RunRecord other) {
        return fingerprint().equals(other.fingerprint()) && profile().equals(other.profile());
    }

    /** Its rounds of starts (plan.rounds). */
    public int plannedRounds() {
        return raw.path(PLAN).path(PLAN_ROUNDS).asInt();
    }

    /** How many starts it made (plan.order). */
    public int startsRun() {
        return raw.path(PLAN).path(PLAN_ORDER).size();
    }

    /**
     * Its starts that measured something: plan.order entries (round, variant) for which a cell of that variant has a
     * start of that round that did not fail. A failed start is in the wall time, not in what it bought.
     */
    public MeasuredStarts measuredStarts() {
        Map<String, int[]> perStart = new HashMap<>();
        for (Cell cell : cells()) {
            for (Trial trial : cell.trials()) {
                int[] counts = perStart.computeIfAbsent(trial.round() + "\u0000" + cell.variant(), k -> new int[2]);
                counts[0]++;
                counts[1] += trial.measured() ? 1 : 0;
            }
        }
        int starts = 0;
        int cellStarts = 0;
        int cellStartsMeasured = 0;
        for (JsonNode start : raw.path(PLAN).path(PLAN_ORDER)) {
            int[] counts = perStart.get(start.path(0).asInt() + "\u0000" + start.path(1).asText());
            if (counts != null && counts[1] > 0) {
                starts++;
                cellStarts += counts[0];
                cellStartsMeasured += counts[1];
            }
        }
        return new MeasuredStarts(starts, cellStarts, cellStartsMeasured);
    }

    /**
     * The starts that measured something, their cells (one per cell the start ran or failed) and of those the cells
     * that measured: a start whose second cell failed paid for windows it did not get.
     */
    public record MeasuredStarts(int starts, int cellStarts, int cellStartsMeasured) {
    }

    /** One of its wall-time figures ({@code timings}), or null when not recorded. */
    public Double timing(String key) {
        return raw.path(TIMINGS).path(key).isNumber() ? raw.path(TIMINGS).path(key).asDouble() : null;
    }

    /** Measured windows per cell and start, or null in a record without its method. */
    public Integer windowsPerCell() {
        JsonNode windows = raw.path(METHOD).path(METHOD_WINDOWS_PER_CELL);
        return windows.isInt() ? windows.asInt() : null;
    }

    /** How the figures were taken ({@code method}; missing in older records). */
    public JsonNode method() {
        return raw.path(METHOD);
    }

    /** The metric catalogue as the run used it ({@code metricDefinitions}; empty in older records). */
    public JsonNode metricDefinitions() {
        return raw.path(METRIC_DEFINITIONS);
    }

    /** The variants the run recorded, in file order. */
    public List<Variant> variants() {
        List<Variant> variants = new ArrayList<>();
        raw.path(VARIANTS).forEach(node -> variants.add(new Variant(node)));
        return variants;
    }

    /** The variant of that name, if the run recorded it. */
    public Optional<Variant> variant(String name) {
        return variants().stream().filter(v -> v.name().equals(name)).findFirst();
    }

    /** The cells the run recorded, in file order. */
    public List<Cell> cells() {
        List<Cell> cells = new ArrayList<>();
        raw.path(CELLS).forEach(node -> cells.add(new Cell(node)));
        return cells;
    }

    /** The run's CPU comparisons ({@code kind} "across" when a record older than the kinds says none). */
    public List<Comparison> comparisons() {
        List<Comparison> comparisons = new ArrayList<>();
        for (JsonNode c : raw.path(COMPARISONS)) {
            List<Ratio> ratios = new ArrayList<>();
            for (JsonNode r : c.path(COMPARISON_RATIOS)) {
                JsonNode ci = r.path(RATIO_CI95);
                ratios.add(new Ratio(r.path(RATIO_VARIANT).asText(), r.path(RATIO_RATIO).asDouble(),
                        ci.isArray() && ci.size() == 2 ? new double[] {ci.get(0).asDouble(), ci.get(1).asDouble()}
                                : null, r.path(RATIO_CI_COVERS).asText("")));
            }
            comparisons.add(new Comparison(c.path(COMPARISON_SCENARIO).asText(),
                    c.path(COMPARISON_KIND).asText("across"), text(c, COMPARISON_KEY), text(c, COMPARISON_VALUE),
                    c.path(COMPARISON_REGIME).asText(), c.path(COMPARISON_METRIC).asText(),
                    c.path(COMPARISON_BEST).asText(), ratios));
        }
        return comparisons;
    }

    /** The field's text, or null when it is absent, null or not text. */
    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.path(field).asText() : null;
    }

    /**
     * A metric's unit and direction as the run recorded them: its summary's own fields (cell metrics carry both),
     * else run.json's {@code metricDefinitions} (the manifest's catalogue as the run used it), else no unit and
     * smaller-is-better (a record older than both).
     */
    private String unit(String id, JsonNode summary) {
        return summary.path(SUMMARY_UNIT).isTextual() ? summary.path(SUMMARY_UNIT).asText()
                : definition(id).path(DEFINITION_UNIT).asText("");
    }

    private Direction direction(String id, JsonNode summary) {
        String direction = summary.hasNonNull(SUMMARY_DIRECTION) ? summary.path(SUMMARY_DIRECTION).asText()
                : definition(id).path(DEFINITION_DIRECTION).asText("smaller");
        return Direction.fromJson(direction);
    }

    private JsonNode definition(String id) {
        for (JsonNode definition : raw.path(METRIC_DEFINITIONS)) {
            if (id.equals(definition.path(DEFINITION_ID).asText())) {
                return definition;
            }
        }
        return MissingNode.getInstance();
    }

    /** Every metric of every cell plus the startup metrics of every variant, in file order. */
    public List<Point> points() {
        List<Point> points = new ArrayList<>();
        for (Variant variant : variants()) {
            variant.raw().path(VARIANT_STARTUP).properties().forEach(entry -> {
                JsonNode summary = entry.getValue();
                String unit = unit(entry.getKey(), summary);
                Direction direction = direction(entry.getKey(), summary);
                double[] values = values(summary);
                // Paired by round where the record says it (a start that never got ready shifts the index).
                int[] rounds = summary.path(SUMMARY_ROUNDS).size() == values.length && values.length > 0
                        ? StreamSupport.stream(summary.path(SUMMARY_ROUNDS).spliterator(), false)
                        .mapToInt(JsonNode::asInt).toArray() : sequence(values.length);
                points.add(new Point(variant.name(), STARTUP_SCENARIO, STARTUP_REGIME, entry.getKey(), unit,
                        direction, false, true, null, values, rounds, new double[0][], true, null));
            });
        }
        for (Cell cell : cells()) {
            if (!cell.ok()) {
                // A failed cell has no metrics; keep one marker point so reports can show the failure. So has a cell
                // not measured, whose marker says so: never begun is not failed.
                points.add(new Point(cell.variant(), cell.scenario(), cell.regime(), null, null, null, true, false,
                        cell.reason() == null ? cell.status() : cell.reason(),
                        new double[0], new int[0], new double[0][], false, null, cell.notMeasured()));
                continue;
            }
            int[] rounds = rounds(cell);
            cell.metrics().properties().forEach(entry -> {
                JsonNode summary = entry.getValue();
                String unit = unit(entry.getKey(), summary);
                Direction direction = direction(entry.getKey(), summary);
                double[] values = values(summary);
                points.add(new Point(cell.variant(), cell.scenario(), cell.regime(), entry.getKey(), unit, direction,
                        summary.path(SUMMARY_PRIMARY).asBoolean(false), true, null,
                        values, rounds.length == values.length ? rounds : sequence(values.length),
                        windows(summary), cell.steady(), cell.bottleneck()));
            });
        }
        return points;
    }

    /**
     * The round of each measured start of a cell (run.json v2), in the order of its values: a start that failed in a
     * cell that kept its other starts' figures (an A/B's, recorded per start) has no value.
     */
    private static int[] rounds(Cell cell) {
        return cell.trials().stream().filter(Trial::measured).mapToInt(Trial::round).toArray();
    }

    /**
     * Why this run's verdicts must be withheld, from the host's self-check it recorded ({@code hostCheck}: the
     * calibration probe's change between the start and the end, steal on the service's core, other work on it during
     * a start), against the limits recorded with them; null when the run recorded none or they held. Recomputed from
     * the numbers, never taken as text from the record.
     */
    public String hostProblem() {
        String drift = hostDrift();
        return drift != null ? drift : hostProblemWithinRounds();
    }

    /**
     * The calibration probe's move between the start and the end of the run beyond its limit, or null. A history
     * verdict compares runs made at different times, so a host that changed speed under one of them is withheld; an
     * interleaved A/B pairs each head start with a base start of the same round, so a slow drift hits both sides and
     * is said, not withheld (PairedJudge).
     */
    public String hostDrift() {
        JsonNode check = raw.path(HOST_CHECK);
        JsonNode limits = check.path(HOST_LIMITS);
        double change = check.path(HOST_CHANGE_PCT).asDouble(0);
        if (check.path(HOST_CHANGE_PCT).isNumber()
                && Math.abs(change) > limits.path(LIMIT_PROBE_CHANGE_PCT).asDouble(10)) {
            return String.format(Locale.ROOT, "the host's calibration probe moved %+.1f %% during the run", change);
        }
        return null;
    }

    /**
     * What disturbs the starts themselves, not only the run's course: steal on the service's core, or other work on
     * it during a start (a CPU hog). Either can hit one side of a round and not the other, so an A/B withholds on it.
     */
    public String hostProblemWithinRounds() {
        JsonNode check = raw.path(HOST_CHECK);
        JsonNode limits = check.path(HOST_LIMITS);
        if (check.path(HOST_STEAL_PCT).isNumber()
                && check.path(HOST_STEAL_PCT).asDouble() > limits.path(LIMIT_STEAL_PCT).asDouble(2)) {
            return String.format(Locale.ROOT, "the hypervisor took %.1f %% of the service's core (steal)",
                    check.path(HOST_STEAL_PCT).asDouble());
        }
        if (check.path(HOST_OTHERS_PCT).isNumber()
                && check.path(HOST_OTHERS_PCT).asDouble() > limits.path(LIMIT_OTHERS_PCT).asDouble(10)) {
            String where = check.path(HOST_OTHERS_WHERE).asText("");
            return String.format(Locale.ROOT, "other work took %.0f %% of the service's core during a start%s",
                    check.path(HOST_OTHERS_PCT).asDouble(),
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
        for (Cell cell : cells()) {
            // A start never begun is neither a success nor a failure: its round holds no evidence either way.
            starts.put(cell.key(), cell.trials().stream().filter(t -> !t.notMeasured())
                    .map(t -> new Start(t.round(), t.failure())).toList());
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
        JsonNode windows = summary.path(SUMMARY_WINDOWS);
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
        JsonNode values = summary.path(SUMMARY_VALUES);
        if (values.isArray() && !values.isEmpty()) {
            double[] out = new double[values.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = values.get(i).asDouble();
            }
            return out;
        }
        if (summary.path(SUMMARY_MEDIAN).isNumber()) {
            return new double[] {summary.path(SUMMARY_MEDIAN).asDouble()};
        }
        return new double[0];
    }
}
