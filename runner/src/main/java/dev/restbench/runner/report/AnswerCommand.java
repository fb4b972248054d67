package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.run.CpuComparisons;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

/**
 * {@code ./bench answer}: the answer of one run as the README shows it — per variant its CPU per request, its
 * multiple of the least with the 95 % interval (run.json {@code comparisons}), allocation per request, time to ready,
 * RSS, n, and the cell's state and what bound it — as a Markdown table with a caption that says where the figures
 * come from. With {@code --readme} it replaces the part of a file between {@value #BEGIN} and {@value #END} (or a
 * named pair of markers, for a README with more than one answer), so the README's answers are regenerated from run
 * directories instead of copied by hand.
 */
@Command(name = "answer",
        header = "the README's answer table from a run: CPU per request, x the least with its interval, costs",
        description = "Reads a run's run.json and prints, for one scenario's capacity cells, each variant's CPU per"
                + " request, its multiple of the least with the 95 %% interval (the run's comparisons), allocation per"
                + " request, time to ready, RSS, the starts it rests on (n) and the cell's state and bottleneck, as a"
                + " Markdown table under a caption naming the run's date, commit, profile and machine (never its run"
                + " id). --readme <file> writes it between the file's '" + AnswerCommand.BEGIN + "' and '"
                + AnswerCommand.END + "' lines instead, or between '<!-- answer:<name>:begin -->' and '<!--"
                + " answer:<name>:end -->' with --marker <name>.",
        exitCodeList = {"0:printed or written", "1:failure", "2:bad input or usage"})
public final class AnswerCommand implements Callable<Integer> {

    static final String BEGIN = "<!-- answer:begin -->";
    static final String END = "<!-- answer:end -->";
    private static final String CPU = "cpu_us_per_req";
    private static final String DATA_ACCESS = "dataAccess";

    @Option(names = "--scenario", paramLabel = "<name>",
            description = "the scenario to show (default: the only one the run compared; required when it compared"
                    + " several)")
    private String scenario;

    @Option(names = "--readme", paramLabel = "<file>",
            description = "replace the lines between the answer markers of this file instead of printing")
    private Path readme;

    @Option(names = "--marker", paramLabel = "<name>",
            description = "with --readme: the markers named <name> ('<!-- answer:<name>:begin -->'), for a second"
                    + " answer in the same file")
    private String marker;

    @Option(names = "--column", paramLabel = "<key>", defaultValue = DATA_ACCESS,
            description = "the classification key shown beside each variant (default: ${DEFAULT-VALUE}; e.g."
                    + " threading for a workload without a database)")
    private String column;

    @Parameters(paramLabel = "<results dir>", description = "the run")
    private Path dir;

    @Override
    public Integer call() throws IOException {
        RunRecord run;
        try {
            run = RunRecord.read(dir);
        } catch (IllegalArgumentException e) {
            System.err.println("bench answer: " + e.getMessage());
            return 2;
        }
        if (marker != null && !marker.matches("[a-z0-9-]+")) {
            System.err.println("bench answer: --marker takes lower-case letters, digits and '-', not '" + marker + "'");
            return 2;
        }
        String table = render(run.raw(), scenario, column, marker);
        if (readme == null) {
            System.out.print(table);
            return 0;
        }
        Files.writeString(readme, replace(Files.readString(readme, StandardCharsets.UTF_8), table, marker),
                StandardCharsets.UTF_8);
        System.out.println("bench answer: wrote the answer of " + run.runId() + " into " + readme);
        return 0;
    }

    /** The caption and the table with the data access beside each variant, every line ending in a line break. */
    static String render(JsonNode run, String scenario) {
        return render(run, scenario, DATA_ACCESS, null);
    }

    /**
     * The caption and the table with classification key {@code column} beside each variant; the caption's command
     * names the options that made it (the marker too, when the table goes between named markers).
     */
    static String render(JsonNode run, String scenario, String column, String marker) {
        JsonNode comparison = comparison(run, scenario);
        Set<String> keys = new TreeSet<>();
        run.path("variants").forEach(v -> v.path("classification").fieldNames().forEachRemaining(keys::add));
        if (!keys.contains(column)) {
            throw new UsageException("no variant of the run is classified by '" + column + "' (its keys: " + keys
                    + ")");
        }
        String name = comparison.path("scenario").asText();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "CPU per request in `%s` (%s), least first: run of %s, commit `%s`,"
                        + " profile `%s`, %s.",
                name, comparison.path("regime").asText(), run.path("startedAt").asText().replaceFirst("T.*", ""),
                shortSha(run.path("commit").path("id").asText()), run.path("profile").asText(), machine(run)));
        lines.add("Regenerated by `./bench answer <results dir> --scenario " + name
                + (DATA_ACCESS.equals(column) ? "" : " --column " + column) + " --readme README.md"
                + (marker == null ? "" : " --marker " + marker) + "`.");
        lines.add("");
        lines.add("| variant | " + label(column) + " | CPU µs/req | × the least (95 % CI) | alloc B/req | ready (ms)"
                + " | RSS (MB) | n | state, bound by |");
        lines.add("|---|---|--:|--:|--:|--:|--:|--:|---|");
        lines.add(row(run, name, column, comparison.path("best").asText(), "1"));
        for (JsonNode ratio : comparison.path("ratios")) {
            lines.add(row(run, name, column, ratio.path("variant").asText(), multiple(ratio)));
        }
        heldFixed(run, name).ifPresent(line -> lines.addAll(List.of("", line)));
        return String.join("\n", lines) + "\n";
    }

    /**
     * Under the table, when the run's variants read through more than one data access: the ratios with it held fixed
     * and its cost alone (run.json's within and along comparisons), so that no reader takes a framework ratio that
     * carries an ORM for the framework's.
     */
    private static java.util.Optional<String> heldFixed(JsonNode run, String scenario) {
        List<Double> statements = new ArrayList<>();
        for (JsonNode cell : run.path("cells")) {
            if (scenario.equals(cell.path("scenario").asText()) && "capacity".equals(cell.path("regime").asText())
                    && "ok".equals(cell.path("status").asText("ok"))) {
                JsonNode n = cell.path("metrics").path(CpuComparisons.STATEMENTS).path("value");
                statements.add(n.isNumber() ? n.asDouble() : null);
            }
        }
        if (!CpuComparisons.dataAccessInPlay(statements)) {
            return java.util.Optional.empty(); // a run from before the rule may carry them: see CpuComparisons
        }
        List<String> within = new ArrayList<>();
        List<String> along = new ArrayList<>();
        for (JsonNode c : run.path("comparisons")) {
            if (!scenario.equals(c.path("scenario").asText()) || !CPU.equals(c.path("metric").asText())) {
                continue;
            }
            List<String> others = new ArrayList<>();
            c.path("ratios").forEach(r -> others.add(r.path("variant").asText() + " "
                    + multiple(r).replaceFirst("^([0-9.]+)", "$1×")));
            switch (c.path("kind").asText("across")) {
                case "within" -> within.add("with " + c.path("key").asText() + " `" + c.path("value").asText() + "`, "
                        + c.path("best").asText() + " least, " + String.join(", ", others));
                case "along" -> along.add(c.path("best").asText() + " → " + String.join(", ", others));
                default -> { }
            }
        }
        if (within.isEmpty() && along.isEmpty()) {
            return java.util.Optional.empty();
        }
        String text = within.isEmpty() ? "" : "Held fixed: " + String.join("; ", within) + ".";
        if (!along.isEmpty()) {
            text += (text.isEmpty() ? "" : " ") + "The data access alone (variants alike in all else): "
                    + String.join("; ", along) + ".";
        }
        return java.util.Optional.of(text);
    }

    /** The text with the lines between the markers replaced by the table; the markers stay. */
    static String replace(String text, String table) {
        return replace(text, table, null);
    }

    /** As {@link #replace(String, String)}, between the markers named {@code marker} (null: the unnamed ones). */
    static String replace(String text, String table, String marker) {
        String beginMarker = marker == null ? BEGIN : "<!-- answer:" + marker + ":begin -->";
        String endMarker = marker == null ? END : "<!-- answer:" + marker + ":end -->";
        int begin = text.indexOf(beginMarker);
        int end = text.indexOf(endMarker);
        if (begin < 0 || end < begin) {
            throw new UsageException("the file has no '" + beginMarker + "' line followed by an '" + endMarker
                    + "' line");
        }
        int from = text.indexOf('\n', begin) + 1;
        return text.substring(0, from) + table + text.substring(end);
    }

    private static JsonNode comparison(JsonNode run, String scenario) {
        List<JsonNode> matching = new ArrayList<>();
        for (JsonNode c : run.path("comparisons")) {
            boolean named = scenario == null || scenario.equals(c.path("scenario").asText());
            boolean across = "across".equals(c.path("kind").asText("across"));
            if (CPU.equals(c.path("metric").asText()) && named && across) {
                matching.add(c);
            }
        }
        if (matching.size() == 1) {
            return matching.get(0);
        }
        List<String> names = new ArrayList<>();
        run.path("comparisons").forEach(c -> {
            if (!names.contains(c.path("scenario").asText())) {
                names.add(c.path("scenario").asText());
            }
        });
        throw new UsageException(matching.isEmpty()
                ? "the run compared no variants" + (scenario == null ? "" : " in " + scenario)
                        + " (scenarios compared: " + names + ")"
                : "the run compared several scenarios " + names + ": choose one with --scenario");
    }

    /** "data access" for dataAccess: the key's words in lower case. */
    static String label(String key) {
        return key.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    private static String row(JsonNode run, String scenario, String column, String variant, String multiple) {
        JsonNode cell = cell(run, variant, scenario);
        JsonNode metrics = cell.path("metrics");
        JsonNode startup = startup(run, variant);
        String state = cell.path("steady").asBoolean(true) ? "steady" : "UNSTEADY";
        String bound = cell.path("bottleneck").asText("unknown").replace('-', ' ');
        return "| " + String.join(" | ", variant, classification(run, variant, column), number(metrics.path(CPU)),
                multiple,
                number(metrics.path("alloc_bytes_per_req")), number(startup.path("time_to_ready_ms")),
                number(startup.path("rss_after_start_mb")), metrics.path(CPU).path("n").asText("—"),
                state + ", " + bound) + " |";
    }

    private static JsonNode cell(JsonNode run, String variant, String scenario) {
        for (JsonNode cell : run.path("cells")) {
            if (variant.equals(cell.path("variant").asText()) && scenario.equals(cell.path("scenario").asText())
                    && "capacity".equals(cell.path("regime").asText())) {
                return cell;
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    private static String classification(JsonNode run, String variant, String key) {
        for (JsonNode v : run.path("variants")) {
            if (variant.equals(v.path("name").asText())) {
                return v.path("classification").path(key).asText("—");
            }
        }
        return "—";
    }

    private static JsonNode startup(JsonNode run, String variant) {
        for (JsonNode v : run.path("variants")) {
            if (variant.equals(v.path("name").asText())) {
                return v.path("startup");
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    /** "1.2 (1.0–1.5)", with " in one start" when the interval covers one start's windows, or "1.2" unbounded. */
    private static String multiple(JsonNode ratio) {
        String value = String.format(Locale.ROOT, "%.1f", ratio.path("ratio").asDouble());
        JsonNode ci = ratio.path("ci95");
        if (!ci.isArray() || ci.size() != 2) {
            return value;
        }
        return value + String.format(Locale.ROOT, " (%.1f–%.1f%s)", ci.get(0).asDouble(), ci.get(1).asDouble(),
                "within-one-start-only".equals(ratio.path("ciCovers").asText()) ? " in one start" : "");
    }

    /** Three significant digits below 1,000, whole numbers with thousands separators above; "—" when absent. */
    static String number(JsonNode summary) {
        if (!summary.path("value").isNumber()) {
            return "—";
        }
        double v = summary.path("value").asDouble();
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return a >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : a >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String machine(JsonNode run) {
        JsonNode env = run.path("environment");
        return env.path("cpuModel").asText("unknown CPU") + ", " + env.path("cpuCount").asText("?") + " CPUs, harness"
                + " version " + env.path("harnessVersion").asText("?");
    }

    private static String shortSha(String sha) {
        return sha.length() > 7 ? sha.substring(0, 7) : sha;
    }
}
