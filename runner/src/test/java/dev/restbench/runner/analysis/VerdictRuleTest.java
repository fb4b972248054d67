package dev.restbench.runner.analysis;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class VerdictRuleTest {

    private final VerdictRule rule = new VerdictRule();

    @Test
    void tenPercentLessThroughputWithFiveQuietRepetitionsIsARegression() {
        Random random = new Random(1);
        double[] base = RunFixtures.normal(random, 2000, 0.01, 5);
        double[] head = RunFixtures.normal(random, 1800, 0.01, 5);

        MetricComparison result = rule.compare(base, head, Direction.BIGGER, null);

        assertThat(result.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(result.deltaPct()).isBetween(-13.0, -7.0);
        assertThat(result.pValue()).isLessThan(VerdictRule.ALPHA);
        assertThat(result.noiseBandPct()).isLessThan(10.0);
    }

    @Test
    void directionDecidesWhetherAShiftIsARegressionOrAnImprovement() {
        Random random = new Random(2);
        double[] base = RunFixtures.normal(random, 10, 0.01, 5);
        double[] higher = RunFixtures.normal(random, 11, 0.01, 5);

        assertThat(rule.compare(base, higher, Direction.SMALLER, null).verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(rule.compare(base, higher, Direction.BIGGER, null).verdict()).isEqualTo(Verdict.IMPROVEMENT);
    }

    @Test
    void identicalDistributionsAreWithinNoiseAlmostAlways() {
        Random random = new Random(42);
        int trials = 2000;
        int flagged = 0;
        for (int i = 0; i < trials; i++) {
            double[] base = RunFixtures.normal(random, 1000, 0.02, 5);
            double[] head = RunFixtures.normal(random, 1000, 0.02, 5);
            Verdict verdict = rule.compare(base, head, Direction.BIGGER, null).verdict();
            if (verdict == Verdict.REGRESSION || verdict == Verdict.IMPROVEMENT) {
                flagged++;
            }
        }
        // The rank test alone would flag ~5 %; the noise band must bring false alarms to at most 1 %.
        assertThat(flagged).isLessThanOrEqualTo(trials / 100);
    }

    @Test
    void aShiftSmallerThanTheNoiseBandIsWithinNoiseEvenWhenRanksSeparate() {
        double[] base = {1000, 1001, 1002, 1003, 1004};
        double[] head = {1005, 1006, 1007, 1008, 1009};

        MetricComparison result = rule.compare(base, head, Direction.BIGGER, null);

        assertThat(result.pValue()).isLessThan(VerdictRule.ALPHA);
        assertThat(result.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
    }

    @Test
    void historicalNoiseWidensTheBand() {
        double[] base = {1000, 1002, 998, 1001, 999};
        double[] head = {950, 952, 948, 951, 949};

        assertThat(rule.compare(base, head, Direction.BIGGER, null).verdict()).isEqualTo(Verdict.REGRESSION);
        // A series whose run medians usually wander by 3 % (sigma) needs more than 10.5 % to be called.
        MetricComparison noisy = rule.compare(base, head, Direction.BIGGER, 3.0);
        assertThat(noisy.noiseBandPct()).isEqualTo(10.5);
        assertThat(noisy.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        // Beyond the band but with overlapping repetitions: not significant, so not called either way.
        double[] scattered = {880, 1010, 870, 860, 875};
        MetricComparison unclear = rule.compare(base, scattered, Direction.BIGGER, 3.0);
        assertThat(unclear.deltaPct()).isLessThan(-10.5);
        assertThat(unclear.pValue()).isGreaterThanOrEqualTo(VerdictRule.ALPHA);
        assertThat(unclear.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void tooFewSamplesAreInconclusive() {
        MetricComparison two = rule.compare(new double[] {1000, 1001}, new double[] {500, 501}, Direction.BIGGER, null);
        MetricComparison three = rule.compare(new double[] {1000, 1001, 1002}, new double[] {500, 501, 502},
                Direction.BIGGER, null);

        assertThat(two.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(two.reason()).contains("too few samples");
        assertThat(three.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(three.deltaPct()).isCloseTo(-49.95, org.assertj.core.data.Offset.offset(0.01));
    }

    @Test
    void singleRunsAreJudgedByTheSeriesHistoricalNoise() {
        // History: run medians wander by 1 % (sigma), so the band is 3.5 %.
        MetricComparison drop = rule.compare(new double[] {1000}, new double[] {900}, Direction.BIGGER, 1.0);
        MetricComparison wobble = rule.compare(new double[] {1000}, new double[] {980}, Direction.BIGGER, 1.0);

        assertThat(drop.verdict()).isEqualTo(Verdict.REGRESSION);
        assertThat(drop.noiseBandPct()).isEqualTo(3.5);
        assertThat(drop.pValue()).isNull();
        assertThat(wobble.verdict()).isEqualTo(Verdict.WITHIN_NOISE);
        assertThat(rule.compare(new double[] {1000}, new double[] {900}, Direction.BIGGER, null).verdict())
                .isEqualTo(Verdict.INCONCLUSIVE);
    }

    @Test
    void aBandTooWideToResolveAnythingIsInconclusiveNotWithinNoise() {
        double[] base = {100, 160, 60, 120, 90};
        double[] head = {110, 50, 150, 95, 130};

        MetricComparison result = rule.compare(base, head, Direction.BIGGER, null);

        assertThat(result.noiseBandPct()).isGreaterThan(VerdictRule.MAX_BAND_PCT);
        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.reason()).startsWith("too noisy to judge (band ±");
    }

    @Test
    void aZeroBaseMedianHasNoRelativeScale() {
        double[] idle = {0, 0, 0, 0.1, 0};
        assertThat(rule.compare(idle, new double[] {0, 0, 0, 0, 0.2}, Direction.SMALLER, null).verdict())
                .isEqualTo(Verdict.WITHIN_NOISE);
        MetricComparison busier = rule.compare(idle, new double[] {1, 1.2, 0.9, 1.1, 1}, Direction.SMALLER, null);
        assertThat(busier.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(busier.deltaPct()).isNull();
    }

    @Test
    void missingSideIsInconclusive() {
        MetricComparison result = rule.compare(new double[] {1, 2, 3, 4}, new double[0], Direction.BIGGER, null);

        assertThat(result.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(result.reason()).isEqualTo("no head values");
    }

    @Test
    void historicalNoiseIsTheRobustSigmaOfRecentMedians() {
        assertThat(VerdictRule.historicalNoisePct(new double[] {100, 101, 99})).isNull();
        // MAD of {100, 102, 98, 101, 99} around 100 is 1 -> sigma 1.4826 -> 1.4826 % of 100.
        assertThat(VerdictRule.historicalNoisePct(new double[] {100, 102, 98, 101, 99}))
                .isCloseTo(1.4826, org.assertj.core.data.Offset.offset(1e-9));
    }
}
