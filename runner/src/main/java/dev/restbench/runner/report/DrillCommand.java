package dev.restbench.runner.report;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Command;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.manifest.Manifests;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.Verdict;
import dev.restbench.runner.analysis.VerdictRule;
import dev.restbench.runner.io.AtomicFiles;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;

/**
 * {@code ./bench drill}: measures the verdict rule on this machine. One interleaved run holds four copies of the
 * same build: two untouched (a, b) and two with FAULT_CPU_PERCENT=5 and =10 (bench-support FaultInjection burns
 * that share of each request's CPU time again). Comparisons of k repetitions per side are drawn from the run:
 * a vs b gives the false-alarm rate, a vs slow5 / slow10 the detection rates.
 */
public final class DrillCommand implements Command {

    private static final List<String> LABELS = List.of("a", "b", "slow5", "slow10");

    @Override
    public String summary() {
        return "regression drill: false-alarm and detection rates (5 %, 10 % injected CPU) of the verdicts here";
    }

    @Override
    public String help() {
        return """
                usage: ./bench drill [options]

                Runs one variant four times side by side in one interleaved run (the same jar as copies a and b,
                and with FAULT_CPU_PERCENT=5 and =10), then draws comparisons of k repetitions per side and
                applies the verdict rule (docs/verdicts.md) to each: a vs b must be within noise (false alarms),
                a vs slow5 / slow10 should be regressions (detection). Prints both rates per metric with n.

                options:
                  --variant <name>        variant to drill (default jersey)
                  --artifact <jar>        run this jar instead of the manifest's artifact (e.g. a copy, so a
                                          rebuild during the drill cannot change what is measured)
                  --profile <name>        manifest profile for scenario, dataset and load (default smoke)
                  --scenarios a,b         scenarios (default the profile's)
                  --regimes a,b           capacity and/or latency (default capacity)
                  --repetitions <n>       repetitions of each copy in the run (default 10)
                  --warmup <s>            warmup seconds (default: the profile's)
                  --window <s>            measured window seconds (default: the profile's)
                  --k <n>                 repetitions per side in each comparison (default 5)
                  --comparisons <n>       comparisons drawn per pair (default 200; repetitions are resampled,
                                          so they are not independent: the disjoint count is printed too)
                  --seed <n>              seed of the draws (default 1)
                  --from <results dir>    analyse an existing drill run instead of running one
                  --workdir <dir>         derived manifest and results (default target/drill)
                  --output <file>         also write the report (markdown) to this file

                exit codes: 0 measured, 1 failure, 2 bad input or usage""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options options = Options.parse(args, Set.of("variant", "artifact", "profile", "scenarios", "regimes", "repetitions",
                "warmup", "window", "k", "comparisons", "seed", "from", "workdir", "output", "root"), Set.of());
        if (!options.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + options.positional().get(0) + "'");
        }
        Path root = Path.of(options.value("root").orElse(System.getProperty("restbench.root", ".")))
                .toAbsolutePath().normalize();
        String variant = options.value("variant").orElse("jersey");
        String profile = options.value("profile").orElse("smoke");
        int k = AbCommand.positiveInt(options.value("k").orElse("5"), "--k");
        int comparisons = AbCommand.positiveInt(options.value("comparisons").orElse("200"), "--comparisons");
        long seed = Long.parseLong(options.value("seed").orElse("1"));

        Path runDir;
        if (options.value("from").isPresent()) {
            runDir = Path.of(options.value("from").get());
        } else {
            int repetitions = AbCommand.positiveInt(options.value("repetitions").orElse("10"), "--repetitions");
            if (options.value("artifact").isEmpty()) {
                Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
                Manifest.Variant drilled = manifest.variant(variant).orElseThrow(() ->
                        new UsageException("unknown variant '" + variant + "'"));
                new VariantBuilder(root, manifest, Runtimes.ofThisMachine(), System.out).build(List.of(drilled), false, false);
            }
            Path workdir = options.value("workdir").map(Path::of).orElse(root.resolve("target/drill")).toAbsolutePath();
            List<InterleavedRun.Copy> copies = new ArrayList<>();
            for (String label : LABELS) {
                String percent = label.startsWith("slow") ? label.substring(4) : "0";
                copies.add(new InterleavedRun.Copy(variant, label, options.value("artifact").map(Path::of).orElse(null),
                        Map.of("FAULT_CPU_PERCENT", percent)));
            }
            List<String> regimes = List.of(options.value("regimes").orElse("capacity").split(","));
            Path derived = InterleavedRun.deriveManifest(root.resolve("benchmarks.json"), copies, profile,
                    new InterleavedRun.ProfileOverrides(repetitions,
                            options.value("warmup").map(w -> AbCommand.positiveInt(w, "--warmup")).orElse(null),
                            options.value("window").map(w -> AbCommand.positiveInt(w, "--window")).orElse(null),
                            regimes,
                            // The drill measures the verdicts, not the error budget: on a busy 2-core box the
                            // capacity regime's p99 can exceed the budget and would fail (drop) the cell.
                            600_000.0),
                    workdir.resolve("drill-benchmarks.json"));
            List<String> extra = new ArrayList<>();
            options.value("scenarios").ifPresent(s -> extra.addAll(List.of("--scenarios", s)));
            runDir = InterleavedRun.run(root, derived, profile, workdir.resolve("results"), extra);
        }
        RunRecord run;
        try {
            run = RunRecord.read(runDir);
        } catch (IllegalArgumentException e) {
            System.err.println("bench drill: " + e.getMessage());
            return 2;
        }
        String report = report(run, k, comparisons, seed, new VerdictRule());
        System.out.print(report);
        if (options.value("output").isPresent()) {
            AtomicFiles.writeString(Path.of(options.value("output").get()), report);
        }
        return 0;
    }

    /** Rates per series (cell metric) for the three pairs, as a markdown table. */
    static String report(RunRecord run, int k, int comparisons, long seed, VerdictRule rule) {
        Map<String, Map<String, double[]>> byLabel = new LinkedHashMap<>();
        for (String label : LABELS) {
            Map<String, double[]> series = new LinkedHashMap<>();
            for (RunRecord.Point point : InterleavedRun.select(run, label, null).points()) {
                if (point.ok() && !RunRecord.STARTUP_SCENARIO.equals(point.scenario())) {
                    series.put(point.seriesKey(), point.values());
                }
            }
            byLabel.put(label, series);
        }
        Map<String, RunRecord.Point> directions = new LinkedHashMap<>();
        for (RunRecord.Point point : InterleavedRun.select(run, "a", null).points()) {
            if (point.ok() && point.metric() != null && !RunRecord.STARTUP_SCENARIO.equals(point.scenario())) {
                directions.put(point.seriesKey(), point);
            }
        }
        StringBuilder out = new StringBuilder();
        out.append("### Regression drill: run `").append(run.runId()).append("` (profile ").append(run.profile())
                .append(")\n\n");
        out.append(String.format(Locale.ROOT, "k = %d repetitions per side per comparison, %d comparisons drawn "
                + "per pair (seed %d); \"disjoint\" = comparisons from non-overlapping repetitions.%n%n",
                k, comparisons, seed));
        out.append("| series | n reps (a/b/5/10) | false alarms a vs b | detected 5 % | detected 10 % |\n");
        out.append("|---|---|--:|--:|--:|\n");
        Random random = new Random(seed);
        Totals totals = new Totals();
        for (Map.Entry<String, RunRecord.Point> entry : directions.entrySet()) {
            String series = entry.getKey();
            double[] a = byLabel.get("a").get(series);
            double[] b = byLabel.get("b").get(series);
            double[] s5 = byLabel.get("slow5").get(series);
            double[] s10 = byLabel.get("slow10").get(series);
            if (a == null || b == null || s5 == null || s10 == null
                    || Math.min(Math.min(a.length, b.length), Math.min(s5.length, s10.length)) < k) {
                out.append("| ").append(series).append(" | too few repetitions | | | |\n");
                continue;
            }
            var direction = entry.getValue().direction();
            Rate falseAlarms = rate(a, b, k, comparisons, random, rule, direction, true);
            Rate detect5 = rate(a, s5, k, comparisons, random, rule, direction, false);
            Rate detect10 = rate(a, s10, k, comparisons, random, rule, direction, false);
            totals.add(series, falseAlarms, detect5, detect10);
            out.append("| ").append(series).append(" | ").append(a.length).append('/').append(b.length).append('/')
                    .append(s5.length).append('/').append(s10.length).append(" | ").append(falseAlarms)
                    .append(" | ").append(detect5).append(" | ").append(detect10).append(" |\n");
        }
        out.append('\n').append(totals.summary());
        return out.toString();
    }

    /** How often the verdict was a change (false alarm) or a regression (detection). */
    record Rate(int hits, int n, int disjointHits, int disjointN) {
        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%.1f %% (%d/%d; disjoint %d/%d)", n == 0 ? 0 : 100.0 * hits / n,
                    hits, n, disjointHits, disjointN);
        }
    }

    private static Rate rate(double[] base, double[] head, int k, int comparisons, Random random, VerdictRule rule,
                             dev.restbench.runner.analysis.Direction direction, boolean anyChange) {
        int hits = 0;
        for (int i = 0; i < comparisons; i++) {
            if (hit(rule.compare(draw(base, k, random), draw(head, k, random), direction, null).verdict(), anyChange)) {
                hits++;
            }
        }
        int blocks = Math.min(base.length, head.length) / k;
        int disjointHits = 0;
        for (int block = 0; block < blocks; block++) {
            double[] b = java.util.Arrays.copyOfRange(base, block * k, block * k + k);
            double[] h = java.util.Arrays.copyOfRange(head, block * k, block * k + k);
            if (hit(rule.compare(b, h, direction, null).verdict(), anyChange)) {
                disjointHits++;
            }
        }
        return new Rate(hits, comparisons, disjointHits, blocks);
    }

    private static boolean hit(Verdict verdict, boolean anyChange) {
        return anyChange ? verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT
                : verdict == Verdict.REGRESSION;
    }

    /** k values drawn without replacement. */
    private static double[] draw(double[] values, int k, Random random) {
        double[] pool = values.clone();
        for (int i = 0; i < k; i++) {
            int j = i + random.nextInt(pool.length - i);
            double swap = pool[i];
            pool[i] = pool[j];
            pool[j] = swap;
        }
        return java.util.Arrays.copyOf(pool, k);
    }

    /** Rates over the CPU metric (what the fault injects) and over every metric. */
    private static final class Totals {
        private final int[] cpu = new int[6];
        private final int[] all = new int[6];

        void add(String series, Rate falseAlarms, Rate detect5, Rate detect10) {
            int[][] targets = series.endsWith("/cpu_us_per_req") ? new int[][] {cpu, all} : new int[][] {all};
            for (int[] t : targets) {
                t[0] += falseAlarms.hits();
                t[1] += falseAlarms.n();
                t[2] += detect5.hits();
                t[3] += detect5.n();
                t[4] += detect10.hits();
                t[5] += detect10.n();
            }
        }

        String summary() {
            return line("cpu_us_per_req", cpu) + line("all metrics (false alarms; detection counts every metric, "
                    + "including those a CPU fault need not move)", all);
        }

        private static String line(String label, int[] t) {
            return String.format(Locale.ROOT, "- %s: false alarms %.1f %% (n=%d), detection of 5 %% %.1f %% (n=%d), "
                            + "of 10 %% %.1f %% (n=%d)%n", label, pct(t[0], t[1]), t[1], pct(t[2], t[3]), t[3],
                    pct(t[4], t[5]), t[5]);
        }

        private static double pct(int hits, int n) {
            return n == 0 ? 0 : 100.0 * hits / n;
        }
    }
}
