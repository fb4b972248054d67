package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Synthetic interleaved A/B runs ({@code <variant>--base}, {@code <variant>--head}, one start of each per round) drawn
 * from the variance components this box measured (docs/method.md, "The drill"; jersey point-read, harness
 * version 3): per start a between-start offset and the mean of its K windows' noise, on the log scale, the start's
 * value rounded to 6 significant digits as run.json stores it (ResultsWriter). The records have run.json's shape, so
 * they go through the real {@link PairedJudge}, {@code ab.Design} and {@code ab.SequentialRule}.
 *
 * <p>Per cell the capacity regime's primary metrics (throughput, CPU and allocation per request) and the derived
 * req_per_cpu_s, which ResultsWriter's windows make exactly 10⁶ / cpu_us_per_req (WindowMetrics).
 */
public final class SyntheticAb {

    /** Coefficients of variation between starts and between windows of one start, as measured. */
    public record Component(String metric, double betweenCv, double withinCv, double level) {

        double betweenSd() {
            return Math.sqrt(Math.log1p(betweenCv * betweenCv));
        }

        double withinSd() {
            return Math.sqrt(Math.log1p(withinCv * withinCv));
        }
    }

    /** jersey point-read, 40 starts × 3 windows (docs/results/2026-11-23-regression-drill.md): 6.0 % / 4.3 %. */
    public static final Component THROUGHPUT = new Component("throughput", 0.060, 0.043, 11_000);
    /** 5.5 % between starts, 3.9 % within. */
    public static final Component CPU = new Component("cpu_us_per_req", 0.055, 0.039, 90);
    /** 0.3 % / 0.2 %. */
    public static final Component ALLOC = new Component("alloc_bytes_per_req", 0.003, 0.002, 48_000);
    public static final List<Component> JERSEY = List.of(THROUGHPUT, CPU, ALLOC);
    public static final int WINDOWS = 3;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final MathContext SIX_DIGITS = new MathContext(6);

    private final int variants;
    private final int scenarios;
    private final List<Component> components;
    /** [side][variant][scenario][component][round]: the start values. */
    private final double[][][][][] values;
    private final int rounds;
    /** [side][variant][round]: the start failed (all its cells); none unless {@link #failStarts} drew some. */
    private final boolean[][][] failed;
    /** Write a cell with a failed start as the runner did before per-start records: failed, without its trials. */
    private boolean failTheCell;

    /**
     * @param effects head/base ratio per "variant/scenario/metric" key ("v0/s1/cpu_us_per_req"); others unchanged
     */
    public SyntheticAb(int variants, int scenarios, List<Component> components, int rounds,
                       Map<String, Double> effects, SplittableRandom random) {
        this.variants = variants;
        this.scenarios = scenarios;
        this.components = components;
        this.rounds = rounds;
        this.values = new double[2][variants][scenarios][components.size()][rounds];
        this.failed = new boolean[2][variants][rounds];
        for (int side = 0; side < 2; side++) {
            for (int v = 0; v < variants; v++) {
                for (int s = 0; s < scenarios; s++) {
                    for (int c = 0; c < components.size(); c++) {
                        Component component = components.get(c);
                        double ratio = side == 1 ? effects.getOrDefault(key(v, s, component.metric()), 1.0) : 1.0;
                        for (int r = 0; r < rounds; r++) {
                            double log = component.betweenSd() * random.nextGaussian()
                                    + component.withinSd() / Math.sqrt(WINDOWS) * random.nextGaussian();
                            values[side][v][s][c][r] = component.level() * ratio * Math.exp(log);
                        }
                    }
                }
            }
        }
    }

    /** jersey's components in every series of variants × scenarios cells. */
    public static SyntheticAb jersey(int variants, int scenarios, int rounds, Map<String, Double> effects,
                                     SplittableRandom random) {
        return new SyntheticAb(variants, scenarios, JERSEY, rounds, effects, random);
    }

    /**
     * Each start fails (every cell of it: a crash, the error budget) with the side's probability, independently: the
     * review's model of D5. {@code failTheCell}: record them as the runner did before (one failed start fails the
     * cell, no trials listed, so the judge falls back to the old rule); else per start, as ./bench ab records them.
     */
    public SyntheticAb failStarts(double baseRate, double headRate, boolean failTheCell, SplittableRandom random) {
        this.failTheCell = failTheCell;
        for (int side = 0; side < 2; side++) {
            for (int v = 0; v < variants; v++) {
                for (int r = 0; r < rounds; r++) {
                    failed[side][v][r] = random.nextDouble() < (side == 0 ? baseRate : headRate);
                }
            }
        }
        return this;
    }

    public static String key(int variant, int scenario, String metric) {
        return "v" + variant + "/s" + scenario + "/" + metric;
    }

    /** The series key a judgement gives the series of {@link #key}. */
    public static String seriesKey(int variant, int scenario, String metric) {
        return "v" + variant + "/s" + scenario + "/capacity/" + metric;
    }

    public int rounds() {
        return rounds;
    }

    /** The run as run.json holds it after its first {@code k} rounds. */
    public ObjectNode run(int k) {
        ObjectNode run = RunFixtures.empty("sim", "abc", "2026-11-25T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        run.putObject("plan").put("rounds", k);
        ArrayNode cells = (ArrayNode) run.get("cells");
        for (int v = 0; v < variants; v++) {
            for (int s = 0; s < scenarios; s++) {
                for (int side = 0; side < 2; side++) {
                    cells.add(cell(v, s, side, k));
                }
            }
        }
        return run;
    }

    public RunRecord record(int k) {
        return RunRecord.of(run(k), "synthetic A/B, " + k + " rounds");
    }

    private ObjectNode cell(int v, int s, int side, int k) {
        ObjectNode cell = NODES.objectNode();
        cell.put("variant", "v" + v + InterleavedRun.SEPARATOR + (side == 0 ? "base" : "head"));
        cell.put("scenario", "s" + s);
        cell.put("regime", "capacity");
        cell.put("status", "ok");
        cell.putNull("reason");
        cell.put("steady", true);
        cell.put("bottleneck", "service");
        List<Integer> measured = new ArrayList<>();
        for (int r = 0; r < k; r++) {
            if (!failed[side][v][r]) {
                measured.add(r);
            }
        }
        if (measured.isEmpty() || failTheCell && measured.size() < k) {
            cell.put("status", "failed").put("reason", "start failed (synthetic)");
            if (!failTheCell) {
                writeTrials(cell, v, side, k);
            }
            return cell;
        }
        writeTrials(cell, v, side, k);
        ObjectNode metrics = cell.putObject("metrics");
        Map<String, double[]> perMetric = new LinkedHashMap<>();
        for (int c = 0; c < components.size(); c++) {
            double[] starts = new double[measured.size()];
            for (int i = 0; i < starts.length; i++) {
                starts[i] = sixDigits(values[side][v][s][c][measured.get(i)]);
            }
            perMetric.put(components.get(c).metric(), starts);
        }
        double[] cpu = perMetric.get(CPU.metric());
        if (cpu != null) {
            double[] reciprocal = new double[measured.size()];
            for (int i = 0; i < reciprocal.length; i++) {
                reciprocal[i] = sixDigits(1e6 / values[side][v][s][components.indexOf(CPU)][measured.get(i)]);
            }
            perMetric.put("req_per_cpu_s", reciprocal);
        }
        perMetric.forEach((id, starts) -> {
            dev.restbench.manifest.Manifest.MetricDefinition metric = RunFixtures.metric(id);
            ObjectNode m = metrics.putObject(id);
            m.put("unit", metric.unit());
            m.put("direction", metric.direction());
            m.put("primary", RunFixtures.PRIMARY.contains(id));
            m.put("n", starts.length);
            ArrayNode list = m.putArray("values");
            for (double value : starts) {
                list.add(value);
            }
            m.putArray("windows");
        });
        return cell;
    }

    private void writeTrials(ObjectNode cell, int v, int side, int k) {
        ArrayNode trials = cell.putArray("trials");
        for (int r = 0; r < k; r++) {
            boolean ok = !failed[side][v][r];
            trials.addObject().put("trial", r).put("round", r).put("status", ok ? "ok" : "failed")
                    .put("reason", ok ? null : "did not become ready (synthetic)").put("steady", ok);
        }
    }

    /** As ResultsWriter.round writes a start's value to run.json. */
    public static double sixDigits(double value) {
        return new BigDecimal(value).round(SIX_DIGITS).doubleValue();
    }

    /** Binomial share with its Wilson 95 % interval, for tables and assertions. */
    public record Rate(int hits, int trials) {

        public double share() {
            return (double) hits / trials;
        }

        public double low() {
            return wilson()[0];
        }

        public double high() {
            return wilson()[1];
        }

        private double[] wilson() {
            double z = 1.959964;
            double p = share();
            double n = trials;
            double center = (p + z * z / (2 * n)) / (1 + z * z / n);
            double half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
            return new double[] {Math.max(0, center - half), Math.min(1, center + half)};
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%5.1f %% (%4.1f–%4.1f %%, %d/%d)", 100 * share(),
                    100 * low(), 100 * high(), hits, trials);
        }
    }

    /** Every primary series key of the run (variant × scenario × primary metric). */
    public List<String> primarySeries() {
        List<String> out = new ArrayList<>();
        for (int v = 0; v < variants; v++) {
            for (int s = 0; s < scenarios; s++) {
                for (Component c : components) {
                    out.add(seriesKey(v, s, c.metric()));
                }
            }
        }
        return out;
    }
}
