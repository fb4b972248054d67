package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class VarianceComponentsTest {

    @Test
    void handCheckedUnbalancedAnova() {
        // Log values {1,2,3}, {4,6}, {7,8,9,10}: means 2, 5, 8.5, grand 50/9; SSB = 73.222 (2 df), SSW = 9 (6 df);
        // n₀ = (9 − 29/9) / 2; σ²_between = (36.611 − 1.5) / n₀ = 12.154.
        double[][] trials = exp(new double[][] {{1, 2, 3}, {4, 6}, {7, 8, 9, 10}});

        VarianceComponents.Components components = VarianceComponents.estimate(trials);

        double n0 = (9 - 29.0 / 9) / 2;
        assertThat(components.status()).isEqualTo(VarianceComponents.Status.ESTIMATED);
        assertThat(components.starts()).isEqualTo(3);
        assertThat(components.windows()).isEqualTo(9);
        assertThat(components.withinVariance()).isCloseTo(1.5, within(1e-9));
        assertThat(components.betweenVariance()).isCloseTo((73.2222222222 / 2 - 1.5) / n0, within(1e-6));
        assertThat(components.icc()).isCloseTo(12.1538 / (12.1538 + 1.5), within(1e-4));
        assertThat(components.betweenPValue()).isLessThan(0.01);
    }

    @Test
    void recoversSimulatedComponentsInABalancedDesign() {
        VarianceComponents.Components components = VarianceComponents.estimate(simulate(new Random(31), 300,
                4, 4, 0.10, 0.05));

        assertThat(Math.sqrt(components.betweenVariance())).isCloseTo(0.10, within(0.01));
        assertThat(Math.sqrt(components.withinVariance())).isCloseTo(0.05, within(0.003));
        assertThat(components.icc()).isCloseTo(0.8, within(0.05));
        assertThat(components.betweenCvPct()).isCloseTo(100 * Math.sqrt(Math.expm1(0.01)), within(1.0));
    }

    @Test
    void recoversSimulatedComponentsInAnUnbalancedDesign() {
        VarianceComponents.Components components = VarianceComponents.estimate(simulate(new Random(32), 300,
                1, 7, 0.04, 0.08));

        assertThat(Math.sqrt(components.betweenVariance())).isCloseTo(0.04, within(0.008));
        assertThat(Math.sqrt(components.withinVariance())).isCloseTo(0.08, within(0.004));
    }

    @Test
    void noBetweenStartVarianceIsEstimatedAsZeroNotNegative() {
        // With σ_between = 0, the moment estimate is negative about half the time; it is truncated at 0.
        Random random = new Random(33);
        int zeros = 0;
        for (int trial = 0; trial < 200; trial++) {
            VarianceComponents.Components components = VarianceComponents.estimate(simulate(random, 5, 3, 3, 0,
                    0.05));
            assertThat(components.betweenVariance()).isGreaterThanOrEqualTo(0);
            zeros += components.betweenVariance() == 0 ? 1 : 0;
        }
        assertThat(zeros).isBetween(80, 160);
    }

    @Test
    void allEqualValuesHaveNoVarianceAnywhere() {
        VarianceComponents.Components components = VarianceComponents.estimate(new double[][] {{5, 5}, {5, 5, 5}});

        assertThat(components.betweenVariance()).isZero();
        assertThat(components.withinVariance()).isZero();
        assertThat(components.icc()).isZero();
        assertThat(components.betweenPValue()).isEqualTo(1.0);
    }

    @Test
    void oneStartOrOneWindowEachCannotSeparateTheComponents() {
        VarianceComponents.Components oneStart = VarianceComponents.estimate(exp(new double[][] {{0.1, 0.2, 0.3}}));
        VarianceComponents.Components oneWindow = VarianceComponents.estimate(exp(new double[][] {{0.1}, {0.3}}));

        assertThat(oneStart.status()).isEqualTo(VarianceComponents.Status.ONE_START);
        assertThat(oneStart.withinVariance()).isCloseTo(0.01, within(1e-12));
        assertThat(oneStart.betweenVariance()).isZero();
        assertThat(oneWindow.status()).isEqualTo(VarianceComponents.Status.ONE_WINDOW_PER_START);
        assertThat(oneWindow.betweenVariance()).isCloseTo(0.02, within(1e-12));
    }

    @Test
    void kaliberaJonesSpendsWindowsWhereTheVarianceIs() {
        VarianceComponents.Components components = new VarianceComponents.Components(10, 40, 0.01, 0.04, 0,
                VarianceComponents.Status.ESTIMATED);

        // √(60 s / 10 s × 0.04 / 0.01) = √24 = 4.9 → 5 windows per start.
        assertThat(components.optimalWindowsPerStart(60, 10, 20)).isEqualTo(5);
        assertThat(components.optimalWindowsPerStart(60, 10, 3)).isEqualTo(3);
        assertThat(components.grandMeanVariance(4, 5)).isCloseTo(0.01 / 4 + 0.04 / 20, within(1e-15));
        assertThat(components.blockLogRatioSd(4)).isCloseTo(Math.sqrt(2 * (0.01 + 0.01)), within(1e-15));
        VarianceComponents.Components noBetween = new VarianceComponents.Components(10, 40, 0, 0.04, 1,
                VarianceComponents.Status.ESTIMATED);
        assertThat(noBetween.optimalWindowsPerStart(60, 10, 12)).isEqualTo(12);
    }

    /** starts × (minWindows … maxWindows) values, log-normal with the given between- and within-start sd. */
    static double[][] simulate(Random random, int starts, int minWindows, int maxWindows, double betweenSd,
                               double withinSd) {
        double[][] trials = new double[starts][];
        for (int s = 0; s < starts; s++) {
            double level = betweenSd * random.nextGaussian();
            trials[s] = new double[minWindows + random.nextInt(maxWindows - minWindows + 1)];
            for (int w = 0; w < trials[s].length; w++) {
                trials[s][w] = 250 * Math.exp(level + withinSd * random.nextGaussian());
            }
        }
        return trials;
    }

    static double[][] exp(double[][] logs) {
        double[][] values = new double[logs.length][];
        for (int i = 0; i < logs.length; i++) {
            values[i] = new double[logs[i].length];
            for (int j = 0; j < logs[i].length; j++) {
                values[i][j] = Math.exp(logs[i][j]);
            }
        }
        return values;
    }
}
