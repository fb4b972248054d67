package dev.restbench.runner.ab;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** How many rounds an A/B runs and the level its verdict gets (review D1; VerdictRulesSimulationTest for the rates). */
class SequentialRuleTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private SequentialRule rule(double earlyAlpha) {
        return new SequentialRule(3, 20, 7 * 60 + 30, 0.05, earlyAlpha, RunFixtures.catalogue(),
                new PrintStream(printed, true, StandardCharsets.UTF_8));
    }

    /**
     * The budget fits 7 rounds of 60 s: all 7 run, nothing is judged before the last, and the verdict gets the whole
     * α. The old rule looked after rounds 3 to 7 and tested every look, the last one too, at α / 5.
     */
    @Test
    void theVerdictIsJudgedOnceAfterTheBudgetsRoundsAtAlpha() {
        SequentialRule rule = rule(0);
        ObjectNode notARun = Json.MAPPER.createObjectNode(); // a look would fail to read it
        int rounds = 0;
        while (rule.another(++rounds, notARun, 60.0 * rounds)) {
            assertThat(rounds).isLessThan(7);
        }
        assertThat(rounds).isEqualTo(7);
        assertThat(rule.stopReason()).isEqualTo("the budget's 7 round(s) ran");
        assertThat(rule.verdictAlpha()).isEqualTo(0.05);
        assertThat(rule.earlyLooks()).isZero();
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .contains("allows 7 round(s), judged after the last at α = 0.0500");
    }

    @Test
    void roundsSlowerThanTheFirstEndTheRunEarlyWithTheSameLevel() {
        SequentialRule rule = rule(0);
        assertThat(rule.another(1, null, 60)).isTrue();
        assertThat(rule.another(2, null, 300)).isTrue();
        assertThat(rule.another(3, null, 420)).isFalse();
        assertThat(rule.stopReason()).isEqualTo("the next round would exceed the budget");
        assertThat(rule.verdictAlpha()).isEqualTo(0.05);
    }

    /** The alternative that was simulated and not chosen: 0.01 over the early looks (rounds 3–6), 0.04 at the end. */
    @Test
    void anEarlyShareIsSplitOverTheLooksBeforeTheLastRound() {
        SequentialRule rule = rule(0.01);
        rule.another(1, null, 60);
        assertThat(rule.earlyLooks()).isEqualTo(4);
        assertThat(rule.earlyLookAlpha()).isEqualTo(0.0025);
        assertThat(rule.finalAlpha()).isCloseTo(0.04, org.assertj.core.data.Offset.offset(1e-15));
        assertThat(rule.verdictAlpha()).isEqualTo(rule.finalAlpha());
    }
}
