package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PredictionIntervalTest {

    /** Table value t_{0.975, 9}. */
    private static final double T975_9 = 2.262157163;

    @Test
    void handCheckedBoundary() {
        // Logs ±1 alternating: mean 0, sd √(10/9); a new value at t_{0.975, 9} · sd · √(1 + 1/10) has p = 0.05.
        double[] history = new double[10];
        for (int i = 0; i < 10; i++) {
            history[i] = Math.exp(i % 2 == 0 ? 1 : -1);
        }
        double scale = Math.sqrt(10.0 / 9) * Math.sqrt(1.1);
        double boundary = Math.exp(T975_9 * scale);

        PredictionInterval.Judgement judgement = PredictionInterval.judge(history, boundary, 0.95);

        assertThat(judgement.status()).isEqualTo(PredictionInterval.Status.JUDGED);
        assertThat(judgement.center()).isCloseTo(1, within(1e-12));
        assertThat(judgement.pValue()).isCloseTo(0.05, within(1e-8));
        assertThat(judgement.interval().high()).isCloseTo(boundary, within(1e-6));
        assertThat(judgement.interval().low()).isCloseTo(1 / boundary, within(1e-6));
    }

    @Test
    void aValueFromTheSameDistributionIsInsideAboutNinetyFivePercentOfTheTime() {
        Random random = new Random(51);
        int inside = 0;
        int trials = 4000;
        for (int trial = 0; trial < trials; trial++) {
            double[] history = runs(random, 10, 0.01);
            double next = 1000 * Math.exp(0.01 * random.nextGaussian());
            inside += PredictionInterval.judge(history, next, 0.95).outside() ? 0 : 1;
        }
        assertThat((double) inside / trials).isBetween(0.94, 0.96);
    }

    @Test
    void aFivePercentShiftInOnePercentNoiseIsOutside() {
        Random random = new Random(52);
        int outside = 0;
        for (int trial = 0; trial < 500; trial++) {
            double[] history = runs(random, 10, 0.01);
            double next = 1050 * Math.exp(0.01 * random.nextGaussian());
            PredictionInterval.Judgement judgement = PredictionInterval.judge(history, next, 0.95);
            outside += judgement.outside() && judgement.deviationPct() > 0 ? 1 : 0;
        }
        assertThat(outside / 500.0).isGreaterThanOrEqualTo(0.99);
    }

    @Test
    void belowTenPastRunsThereIsNoVerdict() {
        double[] nine = runs(new Random(53), 9, 0.01);

        PredictionInterval.Judgement judgement = PredictionInterval.judge(nine, 5000, 0.95);
        PredictionInterval.Judgement empty = PredictionInterval.judge(new double[0], 5000, 0.95);

        assertThat(judgement.status()).isEqualTo(PredictionInterval.Status.TOO_LITTLE_HISTORY);
        assertThat(judgement.history()).isEqualTo(9);
        assertThat(judgement.outside()).isFalse();
        assertThat(judgement.pValue()).isEqualTo(1.0);
        assertThat(judgement.deviationPct()).isGreaterThan(300);
        assertThat(empty.status()).isEqualTo(PredictionInterval.Status.TOO_LITTLE_HISTORY);
        assertThat(empty.deviationPct()).isZero();
    }

    @Test
    void aHistoryWithoutSpreadJudgesAnyOtherValueOutside() {
        double[] constant = new double[12];
        java.util.Arrays.fill(constant, 7);

        assertThat(PredictionInterval.judge(constant, 7, 0.95).outside()).isFalse();
        assertThat(PredictionInterval.judge(constant, 7, 0.95).pValue()).isEqualTo(1.0);
        assertThat(PredictionInterval.judge(constant, 7.01, 0.95).outside()).isTrue();
    }

    private static double[] runs(Random random, int n, double noise) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            values[i] = 1000 * Math.exp(noise * random.nextGaussian());
        }
        return values;
    }
}
