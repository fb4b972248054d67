package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CPU per request shown relative to the host's speed (benchmarks.json: cpu_us_per_req {@code adjustedBy}
 * load_generator_cpu_us_per_req), beside a verdict that stays on the values as measured: the host runs 25 % slower in
 * some starts than in others, stretching the service's CPU per request and the gauge alike, and the head adds 10 % CPU
 * per request.
 */
class HostGaugeTest {

    /** The host's speed per round and side (ln): slow starts on either side, as this box had them. */
    private static final double[][] HOST = {
            {0.00, 0.22}, {0.18, -0.05}, {-0.10, 0.15}, {0.25, 0.02}, {0.05, -0.20}, {-0.15, 0.10}, {0.12, 0.20}};
    /** Each start's own noise beside the host (ln), small. */
    private static final double[] OWN = {0.01, -0.02, 0.015, -0.01, 0.02, -0.015, 0.005};

    private static final MetricRules CATALOGUE = RunFixtures.catalogue();

    /**
     * @param cpuRatio   head/base of the service's CPU per request
     * @param pgRatio    head/base of PostgreSQL's CPU per request (its work)
     * @param bytesRatio head/base of the answers' bytes
     * @param pagesRatio head/base of the pages PostgreSQL's statements touched per request (its plans)
     * @param bottleneck the cell's bottleneck on both sides
     * @param gauge      whether the record has the gauge at all
     */
    private static Judgement judge(double cpuRatio, double pgRatio, double bytesRatio, double pagesRatio,
                                   String bottleneck, boolean gauge) {
        ObjectNode run = RunFixtures.empty("ab", "abc", "2026-11-28T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        int n = HOST.length;
        int[] rounds = java.util.stream.IntStream.range(0, n).toArray();
        for (int side = 0; side < 2; side++) {
            Map<String, double[][]> metrics = new LinkedHashMap<>();
            double[][] cpu = new double[n][];
            double[][] lg = new double[n][];
            double[][] pg = new double[n][];
            double[][] bytes = new double[n][];
            double[][] pages = new double[n][];
            for (int r = 0; r < n; r++) {
                double host = Math.exp(HOST[r][side]);
                cpu[r] = new double[] {300 * (side == 1 ? cpuRatio : 1) * host * Math.exp(OWN[(r + 2 * side) % n])};
                lg[r] = new double[] {150 * host * Math.exp(-OWN[(r + 3 + side) % n] / 2)};
                pg[r] = new double[] {400 * (side == 1 ? pgRatio : 1) * host
                        * Math.exp(OWN[(r + 1 + 3 * side) % n] / 2)};
                bytes[r] = new double[] {5000 * (side == 1 ? bytesRatio : 1)};
                pages[r] = new double[] {40 * (side == 1 ? pagesRatio : 1)};
            }
            metrics.put("cpu_us_per_req", cpu);
            if (gauge) {
                metrics.put("load_generator_cpu_us_per_req", lg);
            }
            metrics.put("postgres_cpu_us_per_req", pg);
            metrics.put("response_bytes_per_req", bytes);
            metrics.put("sql_blocks_per_req", pages);
            RunFixtures.cell(run, side == 0 ? "jersey--base" : "jersey--head", "join-filter", "capacity", metrics,
                    rounds).put("bottleneck", bottleneck);
        }
        RunRecord record = RunFixtures.record(run);
        return PairedJudge.judge(InterleavedRun.select(record, "base", "b"), InterleavedRun.select(record, "head", "h"),
                0.05, CATALOGUE, "test");
    }

    private static Judgement judge(double cpuRatio, double pgRatio, double bytesRatio, String bottleneck,
                                   boolean gauge) {
        return judge(cpuRatio, pgRatio, bytesRatio, 1, bottleneck, gauge);
    }

    private static SeriesVerdict row(Judgement judgement, String metric) {
        return judgement.rows().stream().filter(r -> r.metric().equals(metric)).findFirst().orElseThrow();
    }

    @Test
    void relativeToTheHostsSpeedTheTenPercentShowsBesideAVerdictOnTheValuesAsMeasured() {
        SeriesVerdict withGauge = row(judge(1.10, 1, 1, "database", true), "cpu_us_per_req");
        SeriesVerdict without = row(judge(1.10, 1, 1, "database", false), "cpu_us_per_req");

        // The verdict is the same test on the same values either way: the host's 25 % swings bury the 10 %.
        assertThat(withGauge.verdict()).isEqualTo(Verdict.INCONCLUSIVE).isEqualTo(without.verdict());
        assertThat(withGauge.pValue()).isEqualTo(without.pValue());
        assertThat(withGauge.reason()).containsPattern("^relative to the host's speed, not judged: \\+(9|10|11)\\.\\d %"
                + " \\(\\+\\d+\\.\\d…\\+\\d+\\.\\d %\\), load_generator_cpu_us_per_req [+-]\\d+\\.\\d %; could detect");
        assertThat(without.reason()).doesNotContain("host's speed");
    }

    @Test
    void withoutAChangeTheFigureRelativeToTheHostIsNearZero() {
        SeriesVerdict cpu = row(judge(1.0, 1, 1, "database", true), "cpu_us_per_req");

        assertThat(cpu.reason()).containsPattern("not judged: [+-][0-3]\\.\\d % \\(-\\d\\.\\d…\\+\\d\\.\\d %\\)");
    }

    @Test
    void theGaugeIsShownNeverJudged() {
        SeriesVerdict gauge = row(judge(1.10, 1, 1, "database", true), "load_generator_cpu_us_per_req");

        assertThat(gauge.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(gauge.pValue()).isNull();
        assertThat(gauge.reason()).contains("host's speed gauge");
    }

    @Test
    void aCellTheServiceBoundsIsJudgedAsMeasured() {
        // A slower service lowers throughput and so raises the load generator's CPU per request: the gauge would
        // absorb the service's own regression.
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "service", true), "cpu_us_per_req");

        assertThat(cpu.reason()).doesNotContain("host's speed");
        assertThat(cpu.verdict()).isNotEqualTo(Verdict.REGRESSION);
    }

    @Test
    void postgresWorkingLessPerRequestTurnsTheGaugeOff() {
        // PostgreSQL's CPU per request fell 20 % against the gauge's: its work changed (an index), and throughput
        // with it, which the gauge would follow.
        SeriesVerdict cpu = row(judge(1.0, 0.80, 1, "database", true), "cpu_us_per_req");

        assertThat(cpu.reason()).contains("PostgreSQL's CPU per request moved -20.0 %");
    }

    /**
     * An index serves the head's reads: PostgreSQL touches a tenth of the pages with the same statements and rows. Its
     * CPU per request is made to move with the gauge here, so that only the pages can tell.
     */
    @Test
    void postgresTouchingOtherPagesTurnsTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.0, 1, 1, 0.1, "database", true), "cpu_us_per_req");

        assertThat(cpu.reason()).startsWith("not shown relative to the host's speed: sql_blocks_per_req moved -90.0 %");
        assertThat(row(judge(1.0, 1, 1, 1.01, "database", true), "cpu_us_per_req").reason())
                .as("within its minimum effect").startsWith("relative to the host's speed, not judged");
    }

    @Test
    void answersOfAnotherSizeTurnTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1.5, "database", true), "cpu_us_per_req");

        assertThat(cpu.reason()).contains("the answers' bytes per request moved +50.0 %");
    }
}
