package dev.restbench.runner.analysis;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.stats.PairedRatio;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verdict's per-metric rules as benchmarks.json states them (docs/method.md, "Minimum effects"). */
class MetricRulesTest {

    private static final MetricRules CATALOGUE = RunFixtures.catalogue();

    @Test
    void theCatalogueSaysHowEachMetricIsJudged() {
        assertThat(CATALOGUE.minEffectPct("cpu_us_per_req")).isEqualTo(5.0);
        assertThat(CATALOGUE.minEffectPct("throughput")).isEqualTo(5.0);
        // Allocation per request varies 0.46 % per round here: 1 % is resolvable, 5 % would hide +4 % (review D7).
        assertThat(CATALOGUE.minEffectPct("alloc_bytes_per_req")).isEqualTo(1.0);
        assertThat(CATALOGUE.rule("latency_p99").test()).isEqualTo(PairedRatio.Test.SIGN_FLIP);
        assertThat(CATALOGUE.rule("hikari_active_peak").discrete()).isTrue();
        assertThat(CATALOGUE.rule("threads_peak").discrete()).isTrue();
        assertThat(CATALOGUE.rule("cpu_us_per_req").test()).isEqualTo(PairedRatio.Test.T);
        assertThat(CATALOGUE.rule("req_per_cpu_s").judged()).isFalse();
        assertThat(CATALOGUE.rule("req_per_cpu_s").reciprocalOf()).isEqualTo("cpu_us_per_req");
        assertThat(CATALOGUE.rule("cpu_us_per_req").judged()).isTrue();
        assertThat(CATALOGUE.rule("sql_statements_per_req").test()).isEqualTo(PairedRatio.Test.T);
        assertThat(CATALOGUE.describe())
                .isEqualTo("5 % (alloc_bytes_per_req 1 %, sql_statements_per_req 2 %, sql_rows_per_req 2 %, "
                        + "sql_blocks_per_req 2 %, sql_text_bytes_per_req 1 %, response_bytes_per_req 1 %)");
    }

    @Test
    void aRecordReadsBackAsWritten() {
        MetricRules read = MetricRules.fromJson(CATALOGUE.toJson(), "ab.json");
        for (String id : MetricCatalog.ids()) {
            assertThat(read.rule(id)).as(id).isEqualTo(CATALOGUE.rule(id));
        }
    }

    @Test
    void anOverrideReplacesEveryMinimumEffectAndKeepsTheRest() {
        MetricRules two = CATALOGUE.withMinEffect(2);
        assertThat(two.minEffectPct("alloc_bytes_per_req")).isEqualTo(2.0);
        assertThat(two.minEffectPct("cpu_us_per_req")).isEqualTo(2.0);
        assertThat(two.rule("latency_p99").discrete()).isTrue();
        assertThat(two.rule("req_per_cpu_s").judged()).isFalse();
        assertThat(MetricRules.uniform(5).rule("latency_p99").test()).isEqualTo(PairedRatio.Test.T);
    }

    @Test
    void anUntrustedRecordIsChecked() {
        ObjectNode json = CATALOGUE.toJson();
        ((ObjectNode) json.get("cpu_us_per_req")).put("minEffectPct", 0);
        assertThatThrownBy(() -> MetricRules.fromJson(json, "ab.json"))
                .hasMessageContaining("ab.json: metrics.cpu_us_per_req.minEffectPct must be in (0, 100), was 0.0");
        ObjectNode reciprocal = CATALOGUE.toJson();
        ((ObjectNode) reciprocal.get("req_per_cpu_s")).put("reciprocalOf", "nothing");
        assertThatThrownBy(() -> MetricRules.fromJson(reciprocal, "ab.json"))
                .hasMessageContaining("reciprocalOf must name another metric of the record");
        assertThatThrownBy(() -> MetricRules.fromJson(CATALOGUE.toJson().removeAll(), "ab.json"))
                .hasMessageContaining("metrics must be a non-empty object");
    }

    /**
     * Shown only is a fact of the catalogue: a record that calls the planner's runs judged (a ratio of near-zeros) is
     * judged with the catalogue's facts, and a record's reason must be a short text.
     */
    @Test
    void shownOnlyIsAFactOfTheCatalogue() {
        assertThat(CATALOGUE.rule("sql_plans_per_req").shownOnlyReason())
                .startsWith("shown only: the planner's runs are 0 in most windows");
        ObjectNode json = CATALOGUE.toJson();
        ((ObjectNode) json.get("sql_plans_per_req")).remove("shownOnly");
        assertThat(MetricRules.fromJson(json, "ab.json").rule("sql_plans_per_req").judged()).isTrue();
        assertThat(MetricRules.fromJson(json, "ab.json").withFactsOf(CATALOGUE).rule("sql_plans_per_req").judged())
                .isFalse();
        // A record that leaves the metric out altogether: not an unknown metric, judged with the t-test.
        ObjectNode without = CATALOGUE.toJson();
        without.remove(List.of("sql_plans_per_req", "req_per_cpu_s", "load_generator_cpu_us_per_req"));
        ((ObjectNode) without.get("cpu_us_per_req")).remove("crossCheckedBy");
        MetricRules read = MetricRules.fromJson(without, "ab.json").withFactsOf(CATALOGUE);
        assertThat(read.rule("sql_plans_per_req").judged()).isFalse();
        assertThat(read.rule("req_per_cpu_s").judged()).isFalse();
        assertThat(read.rule("load_generator_cpu_us_per_req").judged()).isFalse();
        assertThat(read.rule("cpu_us_per_req").adjustedBy()).as("its cross-check left out: no gauge").isNull();
        ((ObjectNode) json.get("sql_plans_per_req")).put("shownOnly", " ");
        assertThatThrownBy(() -> MetricRules.fromJson(json, "ab.json"))
                .hasMessageContaining("ab.json: metrics.sql_plans_per_req.shownOnly must be a short text");
    }

    /** The gauge's cross-check is a fact of the catalogue: a record that leaves its metric out loses the gauge too. */
    @Test
    void aRecordWithoutTheCrossCheckUsesNoGauge() {
        assertThat(MetricRules.fromJson(CATALOGUE.toJson(), "ab.json").withFactsOf(CATALOGUE)
                .rule("cpu_us_per_req").adjustedBy()).isEqualTo("postgres_cpu_us_per_req");
        ObjectNode json = CATALOGUE.toJson();
        json.remove("load_generator_cpu_us_per_req");
        ((ObjectNode) json.get("cpu_us_per_req")).remove("crossCheckedBy");
        MetricRules.Rule cpu = MetricRules.fromJson(json, "ab.json").withFactsOf(CATALOGUE).rule("cpu_us_per_req");

        assertThat(cpu.adjustedBy()).isNull();
        assertThat(cpu.crossCheckedBy()).isNull();
    }

    @Test
    void theCrossCheckIsShownOnlyAndTheGaugeIsJudged() {
        assertThat(CATALOGUE.rule("load_generator_cpu_us_per_req").judged()).isFalse();
        assertThat(CATALOGUE.rule("postgres_cpu_us_per_req").judged()).isTrue();
    }
}
