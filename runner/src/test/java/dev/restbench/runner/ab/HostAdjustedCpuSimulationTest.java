package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.SeriesVerdict;
import dev.restbench.runner.analysis.SyntheticAb.Rate;
import dev.restbench.runner.analysis.Verdict;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Why CPU per request relative to the host's speed (analysis.HostGauge) is shown beside the verdict and not judged,
 * simulated as coded: synthetic interleaved A/B records go through {@link Design#judge}, the code ./bench ab runs,
 * once with each start's CPU per request as measured and once with it divided by the start's gauge (what judging the
 * figure relative to the host would do: the same paired test on those ratios).
 *
 * <p>The model is the one this box showed on 2026-11-27 (docs/results/2026-11-27-host-adjusted-cpu.md), per start on
 * the log scale, in database-bound cells: the host is slower by h ~ N(0, σ_h) in a start (σ_h 0.15 that evening, 0.05
 * by day); throughput falls by h; the service's CPU per request rises by h plus its own noise (4 % between starts, 3.9
 * % within, 3 windows); the load generator's utilisation stayed put while throughput moved (slope 0.04–0.13), so its
 * CPU per request is modelled as ⅔ a cost per second, divided by throughput, and ⅓ per request, stretched by h:
 * L (⅔ T/throughput + ⅓ e^h) — a fixed share as large as the data allow, the worst case for a faster database;
 * PostgreSQL's CPU per request rises by h plus 4 %. One variant,
 * three database-bound cells, 7 rounds (a jersey PR's hour), judged once at α = 0.05 as ab does.
 *
 * <p>Replications are fixed-seed, so the assertions cannot flake; they sit at the edges of the model's rates.
 * {@code -Drestbench.sim.replications=4000} prints tighter figures (lines starting with "SIM").
 */
class HostAdjustedCpuSimulationTest {

    private static final int REPLICATIONS = Integer.getInteger("restbench.sim.replications", 400);
    private static final MetricRules CATALOGUE = RunFixtures.catalogue();
    private static final int ROUNDS = 7;
    private static final int CELLS = 3;
    private static final String[] SCENARIOS = {"heavy-body", "join-filter", "mixed"};
    private static final double FIXED_SHARE = 2.0 / 3;

    /** What differs between head and base in cell 0, and how noisy the host is. */
    record Case(double hostSd, double cpuRatio, double dbSpeedup, double pgWork, boolean gauge, double driftPct) {

        Case(double hostSd, double cpuRatio, double dbSpeedup, double pgWork, boolean gauge) {
            this(hostSd, cpuRatio, dbSpeedup, pgWork, gauge, 0);
        }
    }

    private static RunRecord record(Case c, SplittableRandom random) {
        ObjectNode run = RunFixtures.empty("sim", "abc", "2026-11-28T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        int[] rounds = java.util.stream.IntStream.range(0, ROUNDS).toArray();
        // The order of each round's two starts, random as RunPlan draws it: a drift over the run hits the later one more.
        boolean[] headFirst = new boolean[ROUNDS];
        for (int r = 0; r < ROUNDS && c.driftPct() != 0; r++) {
            headFirst[r] = random.nextBoolean(); // without drift the order moves nothing: no draw, the same streams
        }
        for (int cell = 0; cell < CELLS; cell++) {
            for (int side = 0; side < 2; side++) {
                boolean changed = side == 1 && cell == 0;
                double cpuRatio = changed ? c.cpuRatio() : 1;
                double speedup = changed ? c.dbSpeedup() : 1;
                double pgWork = changed ? c.pgWork() : 1;
                double[][] throughput = new double[ROUNDS][];
                double[][] cpu = new double[ROUNDS][];
                double[][] lg = new double[ROUNDS][];
                double[][] pg = new double[ROUNDS][];
                double[][] alloc = new double[ROUNDS][];
                double[][] statements = new double[ROUNDS][];
                double[][] bytes = new double[ROUNDS][];
                for (int r = 0; r < ROUNDS; r++) {
                    int slot = 2 * r + ((side == 1) == headFirst[r] ? 0 : 1);
                    double h = c.hostSd() * random.nextGaussian()
                            - Math.log1p(c.driftPct() / 100) * slot / (2.0 * ROUNDS - 1);
                    double t = 0.03 * random.nextGaussian();
                    double thr = 2000 * speedup * Math.exp(-h + t);
                    throughput[r] = new double[] {thr};
                    double between = 0.04 * random.nextGaussian();
                    cpu[r] = new double[3];
                    for (int w = 0; w < 3; w++) {
                        cpu[r][w] = 300 * cpuRatio * Math.exp(h + between + 0.039 * random.nextGaussian());
                    }
                    // The per-second part divided by this start's throughput; the per-request part stretched by h.
                    lg[r] = new double[] {150 * (FIXED_SHARE * 2000 / thr + (1 - FIXED_SHARE) * Math.exp(h))
                            * Math.exp(0.03 * random.nextGaussian())};
                    pg[r] = new double[] {400 * pgWork * Math.exp(h + 0.04 * random.nextGaussian())};
                    alloc[r] = new double[] {100_000 * Math.exp(0.003 * random.nextGaussian())};
                    statements[r] = new double[] {1.0};
                    bytes[r] = new double[] {5000 * Math.exp(0.01 * random.nextGaussian())};
                }
                if (c.gauge()) {
                    for (int r = 0; r < ROUNDS; r++) {
                        for (int w = 0; w < cpu[r].length; w++) {
                            cpu[r][w] = cpu[r][w] / lg[r][0];
                        }
                    }
                }
                Map<String, double[][]> metrics = new LinkedHashMap<>();
                metrics.put("throughput", throughput);
                metrics.put("cpu_us_per_req", cpu);
                metrics.put("postgres_cpu_us_per_req", pg);
                metrics.put("alloc_bytes_per_req", alloc);
                metrics.put("sql_statements_per_req", statements);
                metrics.put("response_bytes_per_req", bytes);
                RunFixtures.cell(run, "jersey" + InterleavedRun.SEPARATOR + (side == 0 ? "base" : "head"),
                        SCENARIOS[cell], "capacity", metrics, rounds).put("bottleneck", "database");
            }
        }
        return RunRecord.of(run, "simulated A/B");
    }

    /** Shares of simulated A/Bs: cell 0's CPU red, any other primary series red, any CPU red at all. */
    record Rates(Rate cpuRed, Rate otherRed, Rate anyCpuRed) {
    }

    private static Rates rates(Case c, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        Design design = new Design(null, null, AbCommand.ALPHA, CATALOGUE, null);
        int cpuRed = 0;
        int otherRed = 0;
        int anyCpuRed = 0;
        for (int i = 0; i < REPLICATIONS; i++) {
            Judgement judgement = design.judge(record(c, random));
            boolean other = false;
            boolean anyCpu = false;
            for (SeriesVerdict row : judgement.rows()) {
                boolean red = row.primary() && row.verdict() == Verdict.REGRESSION;
                boolean isCpu = row.metric().equals("cpu_us_per_req");
                if (red && isCpu && row.scenario().equals(SCENARIOS[0])) {
                    cpuRed++;
                } else if (red) {
                    other = true;
                }
                anyCpu |= red && isCpu;
            }
            otherRed += other ? 1 : 0;
            anyCpuRed += anyCpu ? 1 : 0;
        }
        return new Rates(new Rate(cpuRed, REPLICATIONS), new Rate(otherRed, REPLICATIONS),
                new Rate(anyCpuRed, REPLICATIONS));
    }

    private static void print(String what, Rates with, Rates without) {
        System.out.println(String.format(Locale.ROOT, "SIM host-adjusted CPU | %s | relative to the gauge: changed"
                        + " cell's CPU red %s, other primary red %s | as measured: %s, %s", what, with.cpuRed(),
                with.otherRed(), without.cpuRed(), without.otherRed()));
    }

    /**
     * +10 % CPU in one cell on the noisy evening's host: judged relative to the gauge it is found ~9× as often as
     * judged as measured (35 % against 4 % in 400 A/Bs: the residual per start is still ~6 %, and 12 primary series
     * share Holm's α in 7 rounds).
     */
    @Test
    void onANoisyHostTheFigureRelativeToTheHostFindsTenPercentCpuFarMoreOften() {
        Rates relative = rates(new Case(0.15, 1.10, 1, 1, true), 1);
        Rates measured = rates(new Case(0.15, 1.10, 1, 1, false), 1);
        print("σ_h 0.15, +10 % CPU", relative, measured);

        assertThat(relative.cpuRed().share()).isGreaterThan(0.25);
        assertThat(measured.cpuRed().share()).isLessThan(0.10);
    }

    /** By day the host moves 5 %: relative to the gauge costs no power either. */
    @Test
    void onAQuietHostTheFigureRelativeToTheHostLosesNothing() {
        Rates relative = rates(new Case(0.05, 1.10, 1, 1, true), 2);
        Rates measured = rates(new Case(0.05, 1.10, 1, 1, false), 2);
        print("σ_h 0.05, +10 % CPU", relative, measured);

        assertThat(relative.cpuRed().share()).isGreaterThanOrEqualTo(measured.cpuRed().share() - 0.05);
    }

    /** No change anywhere: a red headline stays below α either way. */
    @Test
    void withoutAChangeBothStayAtAlpha() {
        for (double hostSd : new double[] {0.15, 0.05}) {
            Rates relative = rates(new Case(hostSd, 1, 1, 1, true), 3);
            Rates measured = rates(new Case(hostSd, 1, 1, 1, false), 3);
            print(String.format(Locale.ROOT, "σ_h %.2f, A/A", hostSd), relative, measured);

            for (Rates rates : java.util.List.of(relative, measured)) {
                assertThat(rates.anyCpuRed().low()).isLessThanOrEqualTo(0.05);
                assertThat(rates.cpuRed().share() + rates.otherRed().share()).isLessThan(0.08);
            }
        }
    }

    /**
     * A host that slows by 16 % over the hour (the ETag run's probe moved −15.7 %), which an A/B no longer withholds
     * on: each round's two starts in random order, so the drift between them is as often for head as against it, and a
     * red headline stays below α.
     */
    @Test
    void aHostThatDriftsOverTheRunDoesNotTurnTheAbRed() {
        Rates drifted = rates(new Case(0.05, 1, 1, 1, false, -16), 5);
        print("σ_h 0.05, host −16 % over the run, A/A", drifted, drifted);

        assertThat(drifted.anyCpuRed().low()).isLessThanOrEqualTo(0.05);
        assertThat(drifted.cpuRed().share() + drifted.otherRed().share()).isLessThan(0.08);
    }

    /**
     * The reason it is not judged. PostgreSQL made 15 % faster by an index (its CPU per request falls 13 % too, so the
     * PostgreSQL check passes): throughput rises, the gauge's per-second part falls with it, and the service's
     * unchanged CPU reads about +9 % relative to it — red in three A/Bs of ten (29.5 % of 400), 0.3 % as measured.
     */
    @Test
    void judgedRelativeToTheHostAFasterDatabaseWouldReadAsMoreServiceCpu() {
        Rates relative = rates(new Case(0.15, 1, 1.15, 1 / 1.15, true), 4);
        Rates measured = rates(new Case(0.15, 1, 1.15, 1 / 1.15, false), 4);
        print("σ_h 0.15, database 15 % faster by an index", relative, measured);

        assertThat(relative.cpuRed().share()).isGreaterThan(0.10);
        assertThat(measured.cpuRed().share()).isLessThan(0.03);
    }
}
