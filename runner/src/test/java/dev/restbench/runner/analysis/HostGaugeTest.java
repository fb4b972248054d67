package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * CPU per request judged relative to the host's speed (benchmarks.json: cpu_us_per_req {@code adjustedBy}
 * postgres_cpu_us_per_req, {@code crossCheckedBy} load_generator_cpu_us_per_req) where the cell qualifies, and as
 * measured otherwise: the host runs 25 % slower in some starts than in others, stretching every process's CPU per
 * request alike, and the head adds 10 % CPU per request.
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
     * @param textRatio  head/base of the bytes of SQL text per request (which statements ran)
     * @param bottleneck the cell's bottleneck on both sides
     * @param gauges     which of the two gauges the record has: "pg+lg", "pg" (no cross-check) or "" (neither);
     *                   with "-rows" the record lacks the rows per request, with "idle" PostgreSQL ran no statement;
     *                   the statements are prepared on both sides (plans 0, but for a connection's first in one base
     *                   round) unless "unprepared" (one plan per statement) or "head-prepared" (the base unprepared,
     *                   the head prepared), and "-plans" leaves the plans out (track_planning off)
     */
    private static Judgement judge(double cpuRatio, double pgRatio, double bytesRatio, double pagesRatio,
                                   double textRatio, String bottleneck, String gauges) {
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
            double[][] text = new double[n][];
            double[][] statements = new double[n][];
            double[][] rows = new double[n][];
            double[][] plans = new double[n][];
            double[][] perCpuSecond = new double[n][];
            for (int r = 0; r < n; r++) {
                double host = Math.exp(HOST[r][side]);
                cpu[r] = new double[] {300 * (side == 1 ? cpuRatio : 1) * host * Math.exp(OWN[(r + 2 * side) % n])};
                lg[r] = new double[] {150 * host * Math.exp(-OWN[(r + 3 + side) % n] / 2)};
                pg[r] = new double[] {400 * (side == 1 ? pgRatio : 1) * host
                        * Math.exp(OWN[(r + 1 + 3 * side) % n] / 2)};
                bytes[r] = new double[] {5000 * (side == 1 ? bytesRatio : 1)};
                pages[r] = new double[] {40 * (side == 1 ? pagesRatio : 1)};
                text[r] = new double[] {180 * (side == 1 ? textRatio : 1)};
                statements[r] = new double[] {gauges.contains("idle") ? 0 : 1};
                rows[r] = new double[] {20};
                boolean unprepared = gauges.contains("unprepared") || (gauges.contains("head-prepared") && side == 0);
                plans[r] = new double[] {unprepared ? statements[r][0] : side == 0 && r == 3 ? 0.004 : 0};
                perCpuSecond[r] = new double[] {1e6 / cpu[r][0]};
            }
            metrics.put("cpu_us_per_req", cpu);
            metrics.put("req_per_cpu_s", perCpuSecond);
            if (gauges.contains("lg")) {
                metrics.put("load_generator_cpu_us_per_req", lg);
            }
            if (gauges.contains("pg")) {
                metrics.put("postgres_cpu_us_per_req", pg);
            }
            metrics.put("response_bytes_per_req", bytes);
            metrics.put("sql_blocks_per_req", pages);
            metrics.put("sql_text_bytes_per_req", text);
            metrics.put("sql_statements_per_req", statements);
            if (!gauges.contains("-rows")) {
                metrics.put("sql_rows_per_req", rows);
            }
            if (!gauges.contains("-plans")) {
                metrics.put("sql_plans_per_req", plans);
            }
            RunFixtures.cell(run, side == 0 ? "jersey--base" : "jersey--head", "join-filter", "capacity", metrics,
                    rounds).put("bottleneck", bottleneck);
        }
        RunRecord record = RunFixtures.record(run);
        return PairedJudge.judge(InterleavedRun.select(record, "base", "b"), InterleavedRun.select(record, "head", "h"),
                0.05, CATALOGUE, "test");
    }

    private static Judgement judge(double cpuRatio, double pgRatio, double bytesRatio, String bottleneck,
                                   String gauges) {
        return judge(cpuRatio, pgRatio, bytesRatio, 1, 1, bottleneck, gauges);
    }

    private static SeriesVerdict row(Judgement judgement, String metric) {
        return judgement.rows().stream().filter(r -> r.metric().equals(metric)).findFirst().orElseThrow();
    }

    @Test
    void relativeToPostgresTheTenPercentTheHostBuriesIsFound() {
        SeriesVerdict relative = row(judge(1.10, 1, 1, "database", "pg+lg"), "cpu_us_per_req");
        SeriesVerdict measured = row(judge(1.10, 1, 1, "database", ""), "cpu_us_per_req");

        // Divided by PostgreSQL's CPU per request, each start's host is out of the pair; as measured its 25 % swings
        // bury the 10 %.
        assertThat(relative.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(relative.changePct()).isBetween(8.0, 12.0);
        assertThat(relative.reason()).containsPattern("^judged relative to the host's speed: postgres_cpu_us_per_req"
                + " [+-]\\d+\\.\\d %, load_generator_cpu_us_per_req [+-]\\d+\\.\\d %; as measured [+-]\\d+\\.\\d %"
                + " \\([+-]\\d+\\.\\d…\\+\\d+\\.\\d %\\)");
        assertThat(measured.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(measured.reason()).doesNotContain("host's speed");
        // The sides stay the values as measured: the division is the test's, not the figures'.
        assertThat(relative.base().value()).isEqualTo(measured.base().value());
    }

    @Test
    void withoutAChangeTheFigureRelativeToTheHostIsNoChange() {
        SeriesVerdict cpu = row(judge(1.0, 1, 1, "database", "pg+lg"), "cpu_us_per_req");

        assertThat(cpu.verdict()).isEqualTo(Verdict.NO_CHANGE);
        assertThat(Math.abs(cpu.changePct())).isLessThan(3);
    }

    /**
     * The load generator's CPU is the harness's work: shown, never judged. PostgreSQL's is what the stack's data access
     * costs the database: judged as measured, as every cost is (it was shown only for a while, and then a query made
     * heavier reached neither the A/B nor the history).
     */
    @Test
    void theCrossCheckIsShownNeverJudgedAndTheGaugeIsJudgedAsMeasured() {
        Judgement judgement = judge(1.10, 1, 1, "database", "pg+lg");
        SeriesVerdict crossCheck = row(judgement, "load_generator_cpu_us_per_req");
        SeriesVerdict gauge = row(judgement, "postgres_cpu_us_per_req");

        assertThat(crossCheck.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(crossCheck.pValue()).isNull();
        assertThat(crossCheck.reason()).contains("cross-checks the host's speed gauge of cpu_us_per_req");
        assertThat(gauge.pValue()).isNotNull();
        assertThat(gauge.verdict()).isNotEqualTo(Verdict.NO_VERDICT);
        assertThat(gauge.reason()).doesNotContain("shown only");
    }

    /**
     * Requests per CPU-second is CPU per request's reciprocal, shown beside it: in the same terms, or the comment would
     * show CPU "no change" relative to the host beside its reciprocal −10 % as measured.
     */
    @Test
    void theReciprocalIsShownInItsSourcesTerms() {
        Judgement judgement = judge(1.10, 1, 1, "database", "pg+lg");
        SeriesVerdict cpu = row(judgement, "cpu_us_per_req");
        SeriesVerdict reciprocal = row(judgement, "req_per_cpu_s");

        assertThat(reciprocal.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(reciprocal.reason()).startsWith("shown only: the reciprocal of cpu_us_per_req, judged there;"
                + " relative to the host's speed: postgres_cpu_us_per_req");
        assertThat((1 + reciprocal.changePct() / 100) * (1 + cpu.changePct() / 100)).isCloseTo(1.0, within(1e-9));
        SeriesVerdict measured = row(judge(1.10, 1, 1, "database", ""), "req_per_cpu_s");
        assertThat(measured.reason()).isEqualTo("shown only: the reciprocal of cpu_us_per_req, judged there");
    }

    /** What is not measured on both sides shows nothing unchanged: a record without the rows per request. */
    @Test
    void aSqlCountNotMeasuredTurnsTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "database", "pg+lg-rows"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "sql_rows_per_req was not measured on both sides");
    }

    /** A cell PostgreSQL does no work for (the cache read): its CPU per request is its background, no gauge. */
    @Test
    void aCellWithoutStatementsHasNoGauge() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "load-generator", "pg+lg idle"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "PostgreSQL ran no statement for this cell in a start");
    }

    /** A record whose cell has no bottleneck (the schema allows null) is judged as measured, without a fault. */
    @Test
    void aCellWithoutABottleneckIsJudgedAsMeasured() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1, null, "pg+lg"), "cpu_us_per_req");

        assertThat(cpu.reason()).doesNotContain("host's speed");
    }

    @Test
    void aCellTheServiceBoundsIsJudgedAsMeasured() {
        // Where the service bounds the cell its noise is its own (Spring's compilers), and a slower service spreads
        // PostgreSQL's per-second costs over fewer requests: the gauge would absorb part of the service's regression.
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "service", "pg+lg"), "cpu_us_per_req");

        assertThat(cpu.reason()).doesNotContain("host's speed");
        assertThat(cpu.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    /**
     * PostgreSQL does a fifth less work per request with the same statements, rows and pages (prepared statements, a
     * cheaper plan over the same pages): relative to it the service's unchanged CPU would read +25 %. The load
     * generator did not move with it, so the gauge is not used.
     */
    @Test
    void postgresWorkingLessAloneTurnsTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.0, 0.80, 1, "database", "pg+lg"), "cpu_us_per_req");

        assertThat(cpu.reason()).containsPattern("^judged as measured, not relative to postgres_cpu_us_per_req:"
                + " postgres_cpu_us_per_req moved -\\d+\\.\\d % against load_generator_cpu_us_per_req's [+-]\\d+\\.\\d %,"
                + " so its work per request changed");
        assertThat(cpu.verdict()).isNotEqualTo(Verdict.REGRESSION);
    }

    @Test
    void withoutTheCrossCheckTheGaugeIsNotUsed() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "database", "pg"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "load_generator_cpu_us_per_req was not measured on both sides");
    }

    /**
     * An index serves the head's reads: PostgreSQL touches a tenth of the pages with the same statements and rows. Its
     * CPU per request is made to move with the cross-check here, so that only the pages can tell.
     */
    @Test
    void postgresTouchingOtherPagesTurnsTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.0, 1, 1, 0.1, 1, "database", "pg+lg"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "sql_blocks_per_req moved -90.0 %");
        assertThat(row(judge(1.0, 1, 1, 1.01, 1, "database", "pg+lg"), "cpu_us_per_req").reason())
                .as("within its minimum effect").startsWith("judged relative to the host's speed");
    }

    /**
     * Other SQL with the same statements, rows and pages (a sort dropped) changes PostgreSQL's work without a count to
     * show it; the text run per request shows it. The gauge is again made to move with its cross-check, so that only
     * the text can tell.
     */
    @Test
    void postgresRunningOtherSqlTurnsTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.0, 1, 1, 1, 0.97, "database", "pg+lg"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "sql_text_bytes_per_req moved -3.0 %");
        assertThat(row(judge(1.0, 1, 1, 1, 1.005, "database", "pg+lg"), "cpu_us_per_req").reason())
                .as("within its minimum effect").startsWith("judged relative to the host's speed");
    }

    /**
     * The head prepares the statements the base sent unprepared: PostgreSQL plans none of them, so it works a tenth
     * less per request with the same statements, rows, pages and text, which a noisy load generator's CPU may not show
     * against it. Relative to it the service's unchanged CPU would read +11 %; the plans show it.
     */
    @Test
    void postgresPlanningLessTurnsTheGaugeOff() {
        // PostgreSQL's CPU is made to move with its cross-check here, so that only the plans can tell.
        SeriesVerdict cpu = row(judge(1.0, 1, 1, "database", "pg+lg head-prepared"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "sql_plans_per_req moved -100.0 points of the statements planned");
        assertThat(cpu.verdict()).isNotEqualTo(Verdict.REGRESSION);
        assertThat(row(judge(1.10, 1, 1, "database", "pg+lg unprepared"), "cpu_us_per_req").reason())
                .as("planned alike: one per statement").startsWith("judged relative to the host's speed");
        assertThat(row(judge(1.10, 1, 1, "database", "pg+lg"), "cpu_us_per_req").reason())
                .as("prepared alike: a connection's first plan in one round is not a change")
                .startsWith("judged relative to the host's speed");
    }

    /**
     * The limit, in points of the statements planned, paired by round: a move just inside it keeps the gauge, just
     * beyond it turns it off, and a round only one side has is not compared.
     */
    @Test
    void thePlannedShareIsComparedRoundByRoundInPoints() {
        RunRecord.Point statements = point("sql_statements_per_req", new double[] {2, 2, 2}, 0, 1, 2);
        RunRecord.Point base = point("sql_plans_per_req", new double[] {0.02, 0.0, 0.0}, 0, 1, 2);

        // head − base per round: −1, +1.9, +1.9 points → +0.93 points on average: inside.
        assertThat(HostGauge.plansMoved(2, base, point("sql_plans_per_req", new double[] {0.0, 0.038, 0.038}, 0, 1, 2),
                statements, statements)).isNull();
        // +2.1 points in every round: beyond.
        assertThat(HostGauge.plansMoved(2, base, point("sql_plans_per_req", new double[] {0.062, 0.042, 0.042}, 0, 1,
                2), statements, statements)).isEqualTo("sql_plans_per_req moved +2.1 points of the statements planned"
                + " (prepared statements added or dropped)");
        // The head planned everything in a round the base did not run: that round is not a pair.
        RunRecord.Point headOther = point("sql_plans_per_req", new double[] {0.0, 0.0, 2.0}, 0, 1, 7);
        RunRecord.Point headStatements = point("sql_statements_per_req", new double[] {2, 2, 2}, 0, 1, 7);
        assertThat(HostGauge.plansMoved(2, base, headOther, statements, headStatements)).isNull();
        // No round in common: not shown alike.
        assertThat(HostGauge.plansMoved(2, base, point("sql_plans_per_req", new double[] {0.0}, 9),
                statements, point("sql_statements_per_req", new double[] {2}, 9)))
                .isEqualTo("sql_plans_per_req was not measured in a round both sides' statements were");
    }

    /**
     * Plans per request are shown, never judged: 0 in most windows of a prepared service, so their ratio ("from 0.000
     * to 0.004") would read as a change of any size, and a service that stops preparing (0 → 1 per statement) has no
     * ratio at all. PostgreSQL's CPU per request is where that costs.
     */
    @Test
    void plansPerRequestAreShownNeverJudged() {
        SeriesVerdict plans = row(judge(1.0, 1, 1, "database", "pg+lg head-prepared"), "sql_plans_per_req");

        assertThat(plans.verdict()).isEqualTo(Verdict.NO_VERDICT);
        assertThat(plans.reason()).startsWith("shown only: the planner's runs are 0 in most windows");
        assertThat(CATALOGUE.rule("sql_plans_per_req").judged()).isFalse();
        assertThat(CATALOGUE.hostIndependent()).doesNotContain("sql_plans_per_req");
    }

    private static RunRecord.Point point(String metric, double[] values, int... rounds) {
        return new RunRecord.Point("jersey", "join-filter", "capacity", metric, "", Direction.SMALLER, false,
                true, null, values, rounds, null, true, "database");
    }

    /** A server that does not track planning, or a record from before the plans: nothing shows them alike. */
    @Test
    void plansNotMeasuredTurnTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1, "database", "pg+lg-plans"), "cpu_us_per_req");

        assertJudgedAsMeasured(cpu, "sql_plans_per_req was not measured on both sides");
    }

    @Test
    void answersOfAnotherSizeTurnTheGaugeOff() {
        SeriesVerdict cpu = row(judge(1.10, 1, 1.5, "database", "pg+lg"), "cpu_us_per_req");

        assertThat(cpu.reason()).contains("the answers' bytes per request moved +50.0 %");
    }

    /** The row was judged as measured, and says why the gauge was not used. */
    private static void assertJudgedAsMeasured(SeriesVerdict row, String why) {
        assertThat(row.reason()).startsWith("judged as measured, not relative to postgres_cpu_us_per_req: " + why);
    }
}
