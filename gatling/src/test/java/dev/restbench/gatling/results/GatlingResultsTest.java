package dev.restbench.gatling.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GatlingResults against real recorded Gatling 3.15.1 runs (src/test/resources/recorded-runs). The expected values
 * come from two sources that do not share the reader's code: the report's statistics table read by column
 * <em>position</em> under its header labels, and Gatling's console summary of the same run, which Gatling renders
 * separately (with its own number formatting).
 */
class GatlingResultsTest {

    @ParameterizedTest
    @ValueSource(strings = {"jersey-read-heavy-overloaded", "jersey-read-heavy-capacity"})
    void extractsExactlyWhatTheReportTableShows(String recording) throws Exception {
        Path run = GatlingResults.findRunDirectory(recording(recording));
        GlobalStats stats = GatlingResults.readGlobalStats(run);
        Map<String, String> table = allRequestsRowByHeader(Files.readString(run.resolve("index.html")));

        assertThat(stats.total()).isEqualTo(Long.parseLong(table.get("Total")));
        assertThat(stats.ok()).isEqualTo(Long.parseLong(table.get("OK")));
        assertThat(stats.ko()).isEqualTo(Long.parseLong(table.get("KO")));
        assertThat(stats.errorPct()).isEqualTo(Double.parseDouble(table.get("% KO")));
        assertThat(stats.meanRequestsPerSecond()).isEqualTo(Double.parseDouble(table.get("Cnt/s")));
        assertThat(stats.minMs()).isEqualTo(Long.parseLong(table.get("Min")));
        assertThat(stats.p50Ms()).isEqualTo(Long.parseLong(table.get("50th pct")));
        assertThat(stats.p75Ms()).isEqualTo(Long.parseLong(table.get("75th pct")));
        assertThat(stats.p95Ms()).isEqualTo(Long.parseLong(table.get("95th pct")));
        assertThat(stats.p99Ms()).isEqualTo(Long.parseLong(table.get("99th pct")));
        assertThat(stats.maxMs()).isEqualTo(Long.parseLong(table.get("Max")));
        assertThat(stats.meanMs()).isEqualTo(Long.parseLong(table.get("Mean")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"jersey-read-heavy-overloaded", "jersey-read-heavy-capacity"})
    void extractsWhatGatlingPrintedOnTheConsoleForTheSameRun(String recording) throws Exception {
        Path folder = recording(recording);
        GlobalStats stats = GatlingResults.readGlobalStats(GatlingResults.findRunDirectory(folder));
        Map<String, String> console = consoleGlobalInformation(
                Files.readString(folder.resolve("console.txt"), StandardCharsets.UTF_8));

        assertThat(stats.total()).isEqualTo(consoleNumber(console, "request count"));
        assertThat(stats.minMs()).isEqualTo(consoleNumber(console, "min response time (ms)"));
        assertThat(stats.maxMs()).isEqualTo(consoleNumber(console, "max response time (ms)"));
        assertThat(stats.meanMs()).isEqualTo(consoleNumber(console, "mean response time (ms)"));
        assertThat(stats.p50Ms()).isEqualTo(consoleNumber(console, "response time 50th percentile (ms)"));
        assertThat(stats.p75Ms()).isEqualTo(consoleNumber(console, "response time 75th percentile (ms)"));
        assertThat(stats.p95Ms()).isEqualTo(consoleNumber(console, "response time 95th percentile (ms)"));
        assertThat(stats.p99Ms()).isEqualTo(consoleNumber(console, "response time 99th percentile (ms)"));
        assertThat(stats.meanRequestsPerSecond()).isEqualTo(consoleDecimal(console, "mean throughput (rps)"));
        assertThat(stats.ok() + stats.ko()).isEqualTo(stats.total());
    }

    @Test
    void readsTimeoutsAsFailuresAndTheRunWindowFromTheReport() throws Exception {
        Path run = GatlingResults.findRunDirectory(recording("jersey-read-heavy-overloaded"));
        GlobalStats stats = GatlingResults.readGlobalStats(run);

        // The console of this run reported "Request timeout ... after 10000 ms  89 (100%)" among the errors.
        assertThat(stats.ko()).isEqualTo(89);
        assertThat(stats.errorPct()).isEqualTo(Math.round(stats.ko() * 10000.0 / stats.total()) / 100.0);
        // The report prints "Date: 2026-11-20 23:55:51 GMT" and "Duration: 24s".
        assertThat(stats.runStart()).isEqualTo(Instant.parse("2026-11-20T23:55:51Z"));
        assertThat(stats.runEnd()).isEqualTo(Instant.parse("2026-11-20T23:56:15Z"));
        // Gatling names the run folder after the moment it started the run, to the millisecond.
        Instant folderTime = LocalDateTime.parse(run.getFileName().toString().replaceAll("^.*-", ""),
                DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")).toInstant(ZoneOffset.UTC);
        assertThat(Duration.between(folderTime, stats.runStart()).abs()).isLessThan(Duration.ofSeconds(5));
    }

    @Test
    void refusesAReportWhoseColumnsMeanSomethingElse(@TempDir Path temp) throws Exception {
        Path original = GatlingResults.findRunDirectory(recording("jersey-read-heavy-capacity"));
        Path copy = Files.createDirectories(temp.resolve("run"));
        // As if gatling.charting.indicators.percentile3 had been set to 90.
        Files.writeString(copy.resolve("index.html"),
                Files.readString(original.resolve("index.html")).replace("95th pct", "90th pct"));

        assertThatThrownBy(() -> GatlingResults.readGlobalStats(copy))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("column 10 is '90th pct', expected '95th pct'");
    }

    @Test
    void explainsAMissingReport(@TempDir Path temp) throws Exception {
        Files.writeString(temp.resolve("simulation.log"), "");

        assertThatThrownBy(() -> GatlingResults.readGlobalStats(temp))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("No Gatling report at")
                .hasMessageContaining("-nr");
    }

    @Test
    void findsExactlyOneRunInAResultsFolder(@TempDir Path temp) throws Exception {
        assertThatThrownBy(() -> GatlingResults.findRunDirectory(temp))
                .hasMessageContaining("found 0");

        Files.createDirectories(temp.resolve("a-1"));
        Files.writeString(temp.resolve("a-1/simulation.log"), "");
        assertThat(GatlingResults.findRunDirectory(temp)).isEqualTo(temp.resolve("a-1"));

        Files.createDirectories(temp.resolve("b-2"));
        Files.writeString(temp.resolve("b-2/simulation.log"), "");
        assertThatThrownBy(() -> GatlingResults.findRunDirectory(temp))
                .hasMessageContaining("found 2");
    }

    private static Path recording(String name) throws URISyntaxException {
        return Path.of(GatlingResultsTest.class.getResource("/recorded-runs/" + name).toURI());
    }

    /**
     * The "All Requests" row of the statistics table, keyed by the header label above each cell: the sortable
     * column headers and the cells of the row are paired by their order in the document (no column ids used).
     */
    private static Map<String, String> allRequestsRowByHeader(String html) {
        String head = between(html, "id=\"container_statistics_head\"", "</table>");
        List<String> labels = new ArrayList<>();
        Matcher th = Pattern.compile("<th[^>]*class=\"header sortable[^>]*>(.*?)</th>", Pattern.DOTALL).matcher(head);
        while (th.find()) {
            labels.add(th.group(1).replaceAll("<[^>]+>", "").trim());
        }
        String row = between(head, "All Requests", "</tr>");
        List<String> cells = new ArrayList<>();
        Matcher td = Pattern.compile("<td[^>]*>([^<]*)</td>").matcher(row);
        while (td.find()) {
            cells.add(td.group(1).trim());
        }
        // labels[0] is "Requests", the name column, which is not a plain <td>value</td> cell.
        assertThat(labels.get(0)).isEqualTo("Requests");
        assertThat(cells).hasSize(labels.size() - 1);
        Map<String, String> byLabel = new HashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            byLabel.put(labels.get(i + 1), cells.get(i));
        }
        return byLabel;
    }

    /** The "Total" column of Gatling's console "Global Information" block, keyed by line label. */
    private static Map<String, String> consoleGlobalInformation(String console) {
        String block = between(console, "---- Global Information", "---- Response Time Distribution");
        Map<String, String> totals = new HashMap<>();
        Matcher line = Pattern.compile("^> (.+?)\\s+\\|\\s*(\\S+)\\s*\\|", Pattern.MULTILINE).matcher(block);
        while (line.find()) {
            totals.put(line.group(1).trim(), line.group(2));
        }
        return totals;
    }

    private static long consoleNumber(Map<String, String> console, String label) {
        return Long.parseLong(console.get(label).replace(",", ""));
    }

    private static double consoleDecimal(Map<String, String> console, String label) {
        return Double.parseDouble(console.get(label).replace(",", ""));
    }

    private static String between(String text, String from, String to) {
        int start = text.indexOf(from);
        assertThat(start).as("'%s' present", from).isNotNegative();
        int end = text.indexOf(to, start);
        assertThat(end).as("'%s' after '%s'", to, from).isGreaterThan(start);
        return text.substring(start, end);
    }
}
