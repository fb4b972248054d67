package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
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
import java.util.Optional;
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
        String table = render(run, scenario, column, marker);
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
        return render(RunRecord.of(run, "run.json"), scenario, DATA_ACCESS, null);
    }

    /**
     * The caption and the table with classification key {@code column} beside each variant; the caption's command
     * names the options that made it (the marker too, when the table goes between named markers).
     */
    static String render(RunRecord run, String scenario, String column, String marker) {
        RunRecord.Comparison comparison = comparison(run, scenario);
        Set<String> keys = new TreeSet<>();
        run.variants().forEach(v -> v.classification().fieldNames().forEachRemaining(keys::add));
        if (!keys.contains(column)) {
            throw new UsageException("no variant of the run is classified by '" + column + "' (its keys: " + keys
                    + ")");
        }
        String name = comparison.scenario();
        List<String> lines = new ArrayList<>();
        lines.add(String.format(Locale.ROOT, "CPU per request in `%s` (%s), least first: run of %s, commit `%s`,"
                        + " profile `%s`, %s.",
                name, comparison.regime(), run.startedAt().replaceFirst("T.*", ""), shortSha(run.commitId()),
                run.profile(), machine(run)));
        lines.add("Regenerated by `./bench answer <results dir> --scenario " + name
                + (DATA_ACCESS.equals(column) ? "" : " --column " + column) + " --readme README.md"
                + (marker == null ? "" : " --marker " + marker) + "`.");
        lines.add("");
        lines.add("| variant | " + label(column) + " | CPU µs/req | × the least (95 % CI) | alloc B/req | ready (ms)"
                + " | RSS (MB) | n | state, bound by |");
        lines.add("|---|---|--:|--:|--:|--:|--:|--:|---|");
        List<RunRecord.Cell> cells = capacityCells(run, name);
        lines.add(row(run, cells, column, comparison.best(), "1"));
        for (RunRecord.Ratio ratio : comparison.ratios()) {
            lines.add(row(run, cells, column, ratio.variant(), multiple(ratio)));
        }
        heldFixed(run, name, cells).ifPresent(line -> lines.addAll(List.of("", line)));
        return String.join("\n", lines) + "\n";
    }

    /** The scenario's capacity cells (what the answer compares). */
    private static List<RunRecord.Cell> capacityCells(RunRecord run, String scenario) {
        return run.cells().stream()
                .filter(c -> scenario.equals(c.scenario()) && CpuComparisons.REGIME.equals(c.regime())).toList();
    }

    /**
     * Under the table, when the run's variants read through more than one data access: the ratios with it held fixed
     * and its cost alone (run.json's within and along comparisons), so that no reader takes a framework ratio that
     * carries an ORM for the framework's.
     */
    private static Optional<String> heldFixed(RunRecord run, String scenario, List<RunRecord.Cell> cells) {
        List<Double> statements = new ArrayList<>();
        for (RunRecord.Cell cell : cells) {
            if (cell.ok()) {
                JsonNode n = cell.metric(CpuComparisons.STATEMENTS).path(RunRecord.SUMMARY_VALUE);
                statements.add(n.isNumber() ? n.asDouble() : null);
            }
        }
        if (!CpuComparisons.dataAccessInPlay(statements)) {
            return Optional.empty(); // a run from before the rule may carry them: see CpuComparisons
        }
        List<String> within = new ArrayList<>();
        List<String> along = new ArrayList<>();
        for (RunRecord.Comparison c : run.comparisons()) {
            if (!scenario.equals(c.scenario()) || !CPU.equals(c.metric())) {
                continue;
            }
            List<String> others = new ArrayList<>();
            c.ratios().forEach(r -> others.add(r.variant() + " " + multiple(r).replaceFirst("^([0-9.]+)", "$1×")));
            switch (c.kind()) {
                case "within" -> within.add("with " + c.key() + " `" + c.value() + "`, " + c.best() + " least, "
                        + String.join(", ", others));
                case "along" -> along.add(c.best() + " → " + String.join(", ", others));
                default -> { }
            }
        }
        if (within.isEmpty() && along.isEmpty()) {
            return Optional.empty();
        }
        String text = within.isEmpty() ? "" : "Held fixed: " + String.join("; ", within) + ".";
        if (!along.isEmpty()) {
            text += (text.isEmpty() ? "" : " ") + "The data access alone (variants alike in all else): "
                    + String.join("; ", along) + ".";
        }
        return Optional.of(text);
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

    private static RunRecord.Comparison comparison(RunRecord run, String scenario) {
        List<RunRecord.Comparison> matching = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (RunRecord.Comparison c : run.comparisons()) {
            boolean named = scenario == null || scenario.equals(c.scenario());
            if (CPU.equals(c.metric()) && named && "across".equals(c.kind())) {
                matching.add(c);
            }
            if (!names.contains(c.scenario())) {
                names.add(c.scenario());
            }
        }
        if (matching.size() == 1) {
            return matching.get(0);
        }
        throw new UsageException(matching.isEmpty()
                ? "the run compared no variants" + (scenario == null ? "" : " in " + scenario)
                        + " (scenarios compared: " + names + ")"
                : "the run compared several scenarios " + names + ": choose one with --scenario");
    }

    /** "data access" for dataAccess: the key's words in lower case. */
    static String label(String key) {
        return key.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(Locale.ROOT);
    }

    private static String row(RunRecord run, List<RunRecord.Cell> cells, String column, String variant,
                              String multiple) {
        Optional<RunRecord.Cell> cell = cells.stream().filter(c -> variant.equals(c.variant())).findFirst();
        JsonNode cpu = cell.map(c -> c.metric(CPU)).orElse(MissingNode.getInstance());
        JsonNode alloc = cell.map(c -> c.metric("alloc_bytes_per_req")).orElse(MissingNode.getInstance());
        Optional<RunRecord.Variant> entry = run.variant(variant);
        JsonNode ready = entry.map(v -> v.startup("time_to_ready_ms")).orElse(MissingNode.getInstance());
        JsonNode rss = entry.map(v -> v.startup("rss_after_start_mb")).orElse(MissingNode.getInstance());
        String state = cell.map(RunRecord.Cell::steady).orElse(true) ? "steady" : "UNSTEADY";
        String bound = cell.map(RunRecord.Cell::bottleneck).orElse("unknown").replace('-', ' ');
        String classification = entry.map(v -> v.classification().path(column).asText("—")).orElse("—");
        return "| " + String.join(" | ", variant, classification, number(cpu), multiple, number(alloc), number(ready),
                number(rss), cpu.path(RunRecord.SUMMARY_N).asText("—"), state + ", " + bound) + " |";
    }

    /** "1.2 (1.0–1.5)", with " in one start" when the interval covers one start's windows, or "1.2" unbounded. */
    private static String multiple(RunRecord.Ratio ratio) {
        String value = String.format(Locale.ROOT, "%.1f", ratio.ratio());
        if (ratio.ci95() == null) {
            return value;
        }
        return value + String.format(Locale.ROOT, " (%.1f–%.1f%s)", ratio.ci95()[0], ratio.ci95()[1],
                "within-one-start-only".equals(ratio.ciCovers()) ? " in one start" : "");
    }

    /** Three significant digits below 1,000, whole numbers with thousands separators above; "—" when absent. */
    static String number(JsonNode summary) {
        if (!summary.path(RunRecord.SUMMARY_VALUE).isNumber()) {
            return "—";
        }
        double v = summary.path(RunRecord.SUMMARY_VALUE).asDouble();
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        return a >= 100 ? String.format(Locale.ROOT, "%.0f", v)
                : a >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    private static String machine(RunRecord run) {
        JsonNode env = run.environment();
        return env.path(RunRecord.CPU_MODEL).asText("unknown CPU") + ", " + env.path(RunRecord.CPU_COUNT).asText("?")
                + " CPUs, harness version " + env.path(RunRecord.HARNESS_VERSION).asText("?");
    }

    private static String shortSha(String sha) {
        return sha.length() > 7 ? sha.substring(0, 7) : sha;
    }
}
