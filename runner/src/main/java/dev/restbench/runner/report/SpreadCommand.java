package dev.restbench.runner.report;

import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.io.TextTable;
import dev.restbench.runner.stats.Descriptive;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code ./bench spread}: how far identical runs moved — the reproducibility check of the method (issue 10: "three
 * identical quick runs, the spread of each primary metric per cell"). Per cell and metric, each run's value (its mean
 * over the cell's starts) and the spread (max − min) / median; per metric, the range and median of the spreads over
 * the cells, over all cells and over the cells whose service was the bottleneck in every run. A figure, not a verdict:
 * the runs share no machine state. ✗: the cell failed in that run; ·: the run did not have it.
 */
@Command(name = "spread",
        header = "how far identical runs moved: per cell and metric the values and (max - min) / median",
        description = "Reads two or more runs of the same profile on the same machine and method (same environment"
                + " fingerprint; anything else is refused) and prints, per cell, each primary metric's value in every"
                + " run and its spread (max - min) / median, with the cell's state (s steady, U unsteady) and what"
                + " bound it per run; then, per metric, the range and median of the spreads over all cells and over"
                + " the cells the service bound in every run. ✗: the cell failed in that run; ·: the run did not have"
                + " it.",
        exitCodeList = {"0:printed", "1:failure", "2:bad input or usage"})
public final class SpreadCommand implements Callable<Integer> {

    /** Shown beside the primary metrics: the service's efficiency, which the reference report reads first. */
    private static final String EFFICIENCY = "req_per_cpu_s";
    /** A cell that failed in a run. */
    private static final String FAILED = "✗";
    /** A cell a run did not have (another selection of variants or scenarios), or did not measure (never begun). */
    private static final String ABSENT = "·";

    @Option(names = "--markdown", arity = "0", description = "Markdown tables (for a README) instead of aligned text")
    private boolean markdown;

    @Parameters(paramLabel = "<results dir>", arity = "2..*", description = "two or more runs")
    private List<Path> dirs;

    @Override
    public Integer call() throws Exception {
        List<RunRecord> runs = new ArrayList<>();
        for (Path dir : dirs) {
            try {
                runs.add(RunRecord.read(dir));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        for (RunRecord run : runs.subList(1, runs.size())) {
            String reason = Judgement.notComparableReason(runs.get(0), run);
            if (reason != null) {
                throw new UsageException(runs.get(0).runId() + " and " + run.runId() + " are not comparable: " + reason);
            }
        }
        Report report = report(runs);
        System.out.print(markdown ? report.cells().markdown() : report.cells().plain());
        System.out.println();
        System.out.print(markdown ? report.summary().markdown() : report.summary().plain());
        return 0;
    }

    /** The per-cell table and the per-metric summary. */
    record Report(TextTable cells, TextTable summary) {
    }

    /** One cell's figures across the runs: per metric one value per run (NaN where the cell failed or lacks it). */
    private record Cell(String key, Map<String, double[]> values, String[] states, String[] bounds) {
    }

    static Report report(List<RunRecord> runs) {
        Set<String> metrics = new LinkedHashSet<>();
        Map<String, Cell> cells = new LinkedHashMap<>();
        for (int r = 0; r < runs.size(); r++) {
            for (RunRecord.Point point : runs.get(r).points()) {
                if (RunRecord.STARTUP_SCENARIO.equals(point.scenario())) {
                    continue;
                }
                Cell cell = cells.computeIfAbsent(point.cellKey(), key -> new Cell(key, new LinkedHashMap<>(),
                        filled(runs.size(), ABSENT), filled(runs.size(), ABSENT)));
                if (!point.ok()) {
                    cell.states()[r] = point.notMeasured() ? ABSENT : FAILED;
                    continue;
                }
                cell.states()[r] = point.steady() ? "s" : "U";
                cell.bounds()[r] = point.bottleneck() == null ? "?" : shortBound(point.bottleneck());
                if (point.primary() || EFFICIENCY.equals(point.metric())) {
                    metrics.add(point.metric());
                    double[] values = cell.values().computeIfAbsent(point.metric(), m -> nans(runs.size()));
                    values[r] = Arrays.stream(point.values()).average().orElse(Double.NaN);
                }
            }
        }
        List<String> columns = new ArrayList<>(metrics);
        columns.sort(java.util.Comparator.comparingInt(SpreadCommand::catalogueOrder));
        List<String> header = new ArrayList<>(List.of("cell"));
        header.addAll(columns);
        header.addAll(List.of("state", "bound by"));
        List<TextTable.Align> align = new ArrayList<>();
        for (int i = 0; i < header.size(); i++) {
            align.add(i == 0 || i >= header.size() - 2 ? TextTable.Align.LEFT : TextTable.Align.RIGHT);
        }
        TextTable table = TextTable.of(header, align);
        Map<String, List<Double>> all = new LinkedHashMap<>();
        Map<String, List<Double>> serviceBound = new LinkedHashMap<>();
        for (Cell cell : cells.values()) {
            List<String> row = new ArrayList<>(List.of(cell.key()));
            boolean boundByService = Arrays.stream(cell.bounds()).allMatch("serv"::equals);
            for (String metric : columns) {
                double[] values = cell.values().getOrDefault(metric, nans(runs.size()));
                double spread = spreadPct(values);
                List<String> figures = new ArrayList<>();
                for (int r = 0; r < values.length; r++) {
                    figures.add(Double.isNaN(values[r]) ? (FAILED.equals(cell.states()[r]) ? FAILED : ABSENT)
                            : PrComment.number(values[r]).replace(",", ""));
                }
                row.add(String.join("/", figures)
                        + (Double.isNaN(spread) ? "" : String.format(Locale.ROOT, " (%.0f %%)", spread)));
                if (!Double.isNaN(spread)) {
                    all.computeIfAbsent(metric, m -> new ArrayList<>()).add(spread);
                    if (boundByService) {
                        serviceBound.computeIfAbsent(metric, m -> new ArrayList<>()).add(spread);
                    }
                }
            }
            row.add(String.join("/", cell.states()));
            row.add(String.join("/", cell.bounds()));
            table.row(row);
        }
        TextTable summary = TextTable.of(List.of("metric", "spread over all cells", "over service-bound cells"), 1);
        for (String metric : columns) {
            summary.row(metric, describe(all.get(metric)), describe(serviceBound.get(metric)));
        }
        return new Report(table, summary);
    }

    /** (max − min) / median in %, over the runs that have a value; NaN with fewer than two. */
    static double spreadPct(double[] values) {
        double[] present = Arrays.stream(values).filter(v -> !Double.isNaN(v)).sorted().toArray();
        if (present.length < 2) {
            return Double.NaN;
        }
        double median = Descriptive.median(present);
        return median == 0 ? Double.NaN : (present[present.length - 1] - present[0]) / Math.abs(median) * 100;
    }

    /** "4–51 % (median 20 %, 9 cells)", or "—" for no cells. */
    static String describe(List<Double> spreads) {
        if (spreads == null || spreads.isEmpty()) {
            return "—";
        }
        double[] sorted = spreads.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = sorted.length;
        return String.format(Locale.ROOT, "%.0f–%.0f %% (median %.0f %%, %d cell%s)", sorted[0], sorted[n - 1],
                Descriptive.median(sorted), n, n == 1 ? "" : "s");
    }

    private static String shortBound(String bottleneck) {
        return switch (bottleneck) {
            case "service" -> "serv";
            case "database" -> "data";
            case "load-generator" -> "load";
            default -> bottleneck;
        };
    }

    /** The metric catalogue's order (throughput, latencies, CPU, …), so the columns do not depend on file order. */
    private static int catalogueOrder(String metric) {
        int index = dev.restbench.runner.analysis.MetricCatalog.ids().indexOf(metric);
        return index < 0 ? Integer.MAX_VALUE : index;
    }

    private static String[] filled(int n, String text) {
        String[] values = new String[n];
        Arrays.fill(values, text);
        return values;
    }

    private static double[] nans(int n) {
        double[] values = new double[n];
        Arrays.fill(values, Double.NaN);
        return values;
    }
}
