package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.runner.stats.CellRatio;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The answer per scenario (capacity regime): which variant needs the least service CPU per request, and each other
 * variant's need as a ratio to it with a 95 % interval ({@link CellRatio}). CPU per request rather than throughput:
 * on a small box the database or the load generator often holds the throughput, while CPU per request is the stack's
 * own cost whatever bound the cell. One computation for the terminal's sentences, run.json and (copied) latest.json.
 *
 * <p>Three kinds per scenario, so that a framework ratio does not silently carry an ORM: across every variant
 * ({@link Kind#ACROSS}); within each value of {@value #HELD_FIXED} that two or more variants share, when the run has
 * more than one ({@link Kind#WITHIN}: "with plain JDBC: …; with JPA: …"); and along {@value #HELD_FIXED} in each
 * group of variants that are alike in every other key ({@link Kind#ALONG}: jersey against jersey-jpa — the cost of the
 * data access on one framework). The connection pool often comes with the data-access library (Sequelize brings its
 * own), so a pair may differ in it too; each ratio's differing keys are printed beside it wherever it is shown.
 * Where the data access is not in play — every cell's window ran no SQL statement, as PostgreSQL counted them (the
 * no-database workload) — there is only the comparison across: holding it fixed would split the variants by a
 * library none of them called.
 */
public record CpuComparisons(List<Comparison> scenarios) {

    public static final String METRIC = "cpu_us_per_req";
    public static final String REGIME = "capacity";
    /** The classification key comparisons hold fixed, and compare along. */
    static final String HELD_FIXED = "dataAccess";
    /** What says whether the data access was in play: PostgreSQL's count of the statements per request. */
    public static final String STATEMENTS = "sql_statements_per_req";
    /** Keys a pair along {@link #HELD_FIXED} may differ in besides it: those that come with the data access. */
    private static final Set<String> COMES_WITH_IT = Set.of("connectionPool");

    enum Kind {
        ACROSS, WITHIN, ALONG;

        String json() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @param kind  what is compared
     * @param key   for WITHIN and ALONG, {@link #HELD_FIXED}; null for ACROSS
     * @param value for WITHIN, the value every member shares; null otherwise
     */
    record Comparison(String scenario, Kind kind, String key, String value, String best, double bestValue,
            List<Ratio> others) {

        List<String> variants() {
            List<String> all = new ArrayList<>(List.of(best));
            others.forEach(r -> all.add(r.variant()));
            return all;
        }
    }

    record Ratio(String variant, CellRatio.Estimate estimate) {
    }

    /**
     * What a comparison reads of one cell: its CPU per request (the value and each start's windows) and the SQL
     * statements per request it counted (null: not counted).
     */
    public record Cell(String variant, String scenario, String regime, boolean ok, Double cpu, double[][] cpuWindows,
                       Double statements) {

        static Cell of(RunResults.CellSummary c) {
            return new Cell(c.key().variant(), c.key().scenario(), c.key().regime(), c.ok(),
                    c.metrics().containsKey(METRIC) ? c.metrics().get(METRIC).value() : null,
                    c.windows().get(METRIC),
                    c.metrics().containsKey(STATEMENTS) ? c.metrics().get(STATEMENTS).value() : null);
        }
    }

    /** Across every variant only (no classification known: the variants are not the manifest's). */
    static CpuComparisons of(List<Manifest.Scenario> scenarios, List<RunResults.CellSummary> cells) {
        return of(scenarios, cells, variant -> Optional.empty());
    }

    static CpuComparisons of(List<Manifest.Scenario> scenarios, List<RunResults.CellSummary> cells, Manifest manifest) {
        return of(scenarios, cells, manifest::variant);
    }

    static CpuComparisons of(List<Manifest.Scenario> scenarios, List<RunResults.CellSummary> cells,
            Function<String, Optional<Manifest.Variant>> variants) {
        return ofCells(scenarios.stream().map(Manifest.Scenario::name).toList(), cells.stream().map(Cell::of).toList(),
                name -> variants.apply(name).map(Manifest.Variant::labels));
    }

    /**
     * The comparisons of these cells, scenario by scenario in the order given; {@code labels} gives a variant's
     * classification (empty when unknown: then it is compared across only). Public for {@code ./bench merge}, which
     * computes them over every shard's cells from run.json.
     */
    public static CpuComparisons ofCells(List<String> scenarios, List<Cell> cells,
            Function<String, Optional<Map<String, String>>> labels) {
        List<Comparison> out = new ArrayList<>();
        for (String scenario : scenarios) {
            List<Cell> ok = cells.stream()
                    .filter(c -> c.ok() && c.scenario().equals(scenario) && c.regime().equals(REGIME)
                            && c.cpu() != null && c.cpuWindows() != null && ResultsWriter.allPositive(c.cpuWindows()))
                    .sorted(Comparator.comparingDouble(Cell::cpu))
                    .toList();
            compare(scenario, Kind.ACROSS, null, null, ok).ifPresent(out::add);
            if (!dataAccessInPlay(ok.stream().map(Cell::statements).toList())) {
                continue;
            }
            Map<String, List<Cell>> byValue = groups(ok, labels, l -> l.get(HELD_FIXED));
            if (byValue.size() > 1) {
                byValue.forEach((value, members) ->
                        compare(scenario, Kind.WITHIN, HELD_FIXED, value, members).ifPresent(out::add));
            }
            groups(ok, labels, CpuComparisons::allButHeldFixed).values().stream()
                    .filter(members -> distinct(members, labels) > 1)
                    .forEach(members -> compare(scenario, Kind.ALONG, HELD_FIXED, null, members)
                            .ifPresent(out::add));
        }
        return new CpuComparisons(out);
    }

    /**
     * Whether the data access was in play in cells that ran these SQL statements per request (null: not counted):
     * false only when every cell counted its statements and ran none. Public for the README's answer, which reads
     * the same rule off run.json.
     */
    public static boolean dataAccessInPlay(java.util.Collection<Double> statementsPerRequest) {
        return statementsPerRequest.stream().anyMatch(n -> n == null || n > 0);
    }

    /** The variants' cells grouped by a signature of their labels, in the order given (least CPU first). */
    private static Map<String, List<Cell>> groups(List<Cell> ok,
            Function<String, Optional<Map<String, String>>> labels, Function<Map<String, String>, String> signature) {
        Map<String, List<Cell>> out = new LinkedHashMap<>();
        for (Cell cell : ok) {
            labels.apply(cell.variant()).map(signature)
                    .ifPresent(s -> out.computeIfAbsent(s, k -> new ArrayList<>()).add(cell));
        }
        return out;
    }

    private static String allButHeldFixed(Map<String, String> labels) {
        Map<String, String> rest = new LinkedHashMap<>(labels);
        rest.remove(HELD_FIXED);
        COMES_WITH_IT.forEach(rest::remove);
        return rest.toString();
    }

    private static long distinct(List<Cell> members, Function<String, Optional<Map<String, String>>> labels) {
        return members.stream().map(c -> labels.apply(c.variant()).map(l -> l.get(HELD_FIXED))).distinct().count();
    }

    private static Optional<Comparison> compare(String scenario, Kind kind, String key, String value,
            List<Cell> leastFirst) {
        if (leastFirst.size() < 2) {
            return Optional.empty();
        }
        Cell best = leastFirst.get(0);
        List<Ratio> others = leastFirst.subList(1, leastFirst.size()).stream()
                .map(c -> new Ratio(c.variant(), CellRatio.of(c.cpuWindows(), best.cpuWindows(), 0.95)))
                .toList();
        return Optional.of(new Comparison(scenario, kind, key, value, best.variant(), best.cpu(), others));
    }

    /**
     * run.json's {@code comparisons}: per scenario and kind the variant with the least CPU per request and each
     * other's ratio to it with its 95 % interval; ciCovers as for a cell's interval.
     */
    public List<Object> json() {
        List<Object> out = new ArrayList<>();
        for (Comparison c : scenarios) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("scenario", c.scenario());
            entry.put("kind", c.kind().json());
            if (c.key() != null) {
                entry.put("key", c.key());
            }
            if (c.value() != null) {
                entry.put("value", c.value());
            }
            entry.put("regime", REGIME);
            entry.put("metric", METRIC);
            entry.put("best", c.best());
            entry.put("bestValue", ResultsWriter.round(c.bestValue()));
            List<Object> ratios = new ArrayList<>();
            for (Ratio r : c.others()) {
                Map<String, Object> ratio = new LinkedHashMap<>();
                ratio.put("variant", r.variant());
                ratio.put("ratio", ResultsWriter.round(r.estimate().ratio()));
                ratio.put("ci95", r.estimate().interval().isBounded() ? List.of(
                        ResultsWriter.round(r.estimate().interval().low()),
                        ResultsWriter.round(r.estimate().interval().high())) : null);
                ratio.put("ciCovers", r.estimate().coverage().name().toLowerCase(java.util.Locale.ROOT)
                        .replace('_', '-'));
                ratios.add(ratio);
            }
            entry.put("ratios", ratios);
            out.add(entry);
        }
        return out;
    }

    /** This scenario's comparisons of one kind, in the order computed. */
    List<Comparison> of(String scenario, Kind kind) {
        return scenarios.stream().filter(c -> c.scenario().equals(scenario) && c.kind() == kind).toList();
    }
}
