package dev.restbench.gatling.results;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the global statistics of a Gatling 3.15 run from its HTML report ({@code index.html}).
 *
 * <p>Why the HTML: since 3.13 Gatling writes no JSON statistics and its {@code simulation.log} is binary and bound
 * to the exact Gatling version, so the report is the stable place where Gatling's own numbers live. The reader
 * checks the table headers before trusting a column, so a report whose layout or configured percentiles differ
 * fails loudly instead of yielding shifted numbers.
 */
public final class GatlingResults {

    /** Column number in the statistics table → the header text Gatling 3.15 prints for it (default indicators). */
    private static final Map<Integer, String> EXPECTED_HEADERS = Map.ofEntries(
            Map.entry(2, "Total"), Map.entry(3, "OK"), Map.entry(4, "KO"), Map.entry(5, "% KO"),
            Map.entry(6, "Cnt/s"), Map.entry(7, "Min"), Map.entry(8, "50th pct"), Map.entry(9, "75th pct"),
            Map.entry(10, "95th pct"), Map.entry(11, "99th pct"), Map.entry(12, "Max"), Map.entry(13, "Mean"));

    private static final Pattern HEADER_CELL =
            Pattern.compile("<th id=\"col-(\\d+)\"[^>]*>(.*?)</th>", Pattern.DOTALL);
    private static final Pattern ROOT_ROW = Pattern.compile("<tr id=\"ROOT\"[^>]*>(.*?)</tr>", Pattern.DOTALL);
    private static final Pattern VALUE_CELL =
            Pattern.compile("<td class=\"value [^\"]*\\bcol-(\\d+)\">\\s*([^<]*?)\\s*</td>");
    private static final Pattern TAG = Pattern.compile("<[^>]+>");
    private static final Pattern RUN_DATE = Pattern.compile(
            "simulation-information-label\">Date: </span>\\s*<span>([^<]+)</span>");
    private static final Pattern RUN_DURATION = Pattern.compile(
            "simulation-information-label\">Duration: </span>\\s*<span>([^<]+)</span>");
    private static final Pattern DURATION_PART = Pattern.compile("(\\d+)\\s*(h|m|s)\\b");
    private static final DateTimeFormatter REPORT_DATE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z");

    private GatlingResults() {
    }

    /**
     * The one run directory Gatling created in {@code resultsFolder} (the {@code -rf} folder): Gatling names it
     * {@code <simulation>-<timestamp>} and it holds {@code index.html}.
     */
    public static Path findRunDirectory(Path resultsFolder) throws IOException {
        if (!Files.isDirectory(resultsFolder)) {
            throw new IOException("Gatling results folder does not exist: " + resultsFolder);
        }
        List<Path> runs;
        try (Stream<Path> children = Files.list(resultsFolder)) {
            runs = children.filter(child -> Files.isRegularFile(child.resolve("simulation.log"))).toList();
        }
        if (runs.size() != 1) {
            throw new IOException("Expected exactly one Gatling run (a folder with simulation.log) in " + resultsFolder
                    + ", found " + runs.size() + ": " + runs);
        }
        return runs.get(0);
    }

    /** The global statistics of the run whose report is in {@code runDirectory}. */
    public static GlobalStats readGlobalStats(Path runDirectory) throws IOException {
        Path index = runDirectory.resolve("index.html");
        if (!Files.isRegularFile(index)) {
            throw new IOException("No Gatling report at " + index
                    + " (runs started with -nr or -Dgatling.noReports=true write none)");
        }
        return parse(Files.readString(index, StandardCharsets.UTF_8), index);
    }

    static GlobalStats parse(String html, Path source) throws IOException {
        checkHeaders(html, source);
        Map<Integer, String> root = rootRow(html, source);
        Instant start = runStart(html, source);
        return new GlobalStats(
                wholeNumber(root, 2, source),
                wholeNumber(root, 3, source),
                wholeNumber(root, 4, source),
                decimal(root, 5, source),
                decimal(root, 6, source),
                wholeNumber(root, 7, source),
                wholeNumber(root, 8, source),
                wholeNumber(root, 9, source),
                wholeNumber(root, 10, source),
                wholeNumber(root, 11, source),
                wholeNumber(root, 12, source),
                wholeNumber(root, 13, source),
                start,
                start.plus(runDuration(html, source)));
    }

    private static void checkHeaders(String html, Path source) throws IOException {
        Map<Integer, String> headers = new TreeMap<>();
        Matcher matcher = HEADER_CELL.matcher(html);
        while (matcher.find()) {
            headers.put(Integer.parseInt(matcher.group(1)), TAG.matcher(matcher.group(2)).replaceAll("").trim());
        }
        for (Map.Entry<Integer, String> expected : EXPECTED_HEADERS.entrySet()) {
            String actual = headers.get(expected.getKey());
            if (!expected.getValue().equals(actual)) {
                throw new IOException("Unexpected Gatling report layout in " + source + ": column "
                        + expected.getKey() + " is '" + actual + "', expected '" + expected.getValue() + "'");
            }
        }
    }

    private static Map<Integer, String> rootRow(String html, Path source) throws IOException {
        Matcher row = ROOT_ROW.matcher(html);
        if (!row.find()) {
            throw new IOException("No global statistics row (tr id=ROOT) in " + source);
        }
        Map<Integer, String> cells = new TreeMap<>();
        Matcher cell = VALUE_CELL.matcher(row.group(1));
        while (cell.find()) {
            cells.put(Integer.parseInt(cell.group(1)), cell.group(2));
        }
        return cells;
    }

    /** Gatling formats numbers with {@code ###,###.##} in Locale.ENGLISH: drop the grouping commas. */
    private static double decimal(Map<Integer, String> row, int column, Path source) throws IOException {
        String text = row.get(column);
        if (text == null) {
            throw new IOException("Column " + EXPECTED_HEADERS.get(column) + " missing from the global row of " + source);
        }
        try {
            return Double.parseDouble(text.replace(",", ""));
        } catch (NumberFormatException e) {
            throw new IOException("Column " + EXPECTED_HEADERS.get(column) + " of " + source
                    + " is not a number: '" + text + "'", e);
        }
    }

    private static long wholeNumber(Map<Integer, String> row, int column, Path source) throws IOException {
        double value = decimal(row, column, source);
        if (value != Math.rint(value)) {
            throw new IOException("Column " + EXPECTED_HEADERS.get(column) + " of " + source
                    + " is not a whole number: " + value);
        }
        return (long) value;
    }

    private static Instant runStart(String html, Path source) throws IOException {
        Matcher date = RUN_DATE.matcher(html);
        if (!date.find()) {
            throw new IOException("No run date in " + source);
        }
        try {
            return ZonedDateTime.parse(date.group(1).trim(), REPORT_DATE).toInstant();
        } catch (DateTimeParseException e) {
            throw new IOException("Unreadable run date '" + date.group(1) + "' in " + source, e);
        }
    }

    /** Gatling prints durations like {@code 1h 2m 3s} (zero parts left out). */
    private static Duration runDuration(String html, Path source) throws IOException {
        Matcher text = RUN_DURATION.matcher(html);
        if (!text.find()) {
            throw new IOException("No run duration in " + source);
        }
        Duration duration = Duration.ZERO;
        Matcher part = DURATION_PART.matcher(text.group(1));
        boolean any = false;
        while (part.find()) {
            any = true;
            long amount = Long.parseLong(part.group(1));
            duration = switch (part.group(2)) {
                case "h" -> duration.plusHours(amount);
                case "m" -> duration.plusMinutes(amount);
                default -> duration.plusSeconds(amount);
            };
        }
        if (!any) {
            throw new IOException("Unreadable run duration '" + text.group(1) + "' in " + source);
        }
        return duration;
    }
}
