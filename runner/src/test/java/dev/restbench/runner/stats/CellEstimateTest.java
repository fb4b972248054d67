package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CellEstimateTest {

    /** Table value t_{0.975, 2}. */
    private static final double T975_2 = 4.302652730;

    @Test
    void handCheckedIntervalOverStartMeans() {
        // Start log-means 0.0, 0.1, 0.2 (each the mean of its windows): mean 0.1, sd 0.1, 2 df.
        double[][] trials = VarianceComponentsTest.exp(new double[][] {{-0.05, 0.05}, {0.1}, {0.1, 0.2, 0.3}});

        CellEstimate.Estimate estimate = CellEstimate.of(trials, 0.95);

        double halfWidth = T975_2 * 0.1 / Math.sqrt(3);
        assertThat(estimate.coverage()).isEqualTo(CellEstimate.Coverage.BETWEEN_STARTS);
        assertThat(estimate.starts()).isEqualTo(3);
        assertThat(estimate.windows()).isEqualTo(6);
        assertThat(estimate.value()).isCloseTo(Math.exp(0.1), within(1e-12));
        assertThat(estimate.interval().low()).isCloseTo(Math.exp(0.1 - halfWidth), within(1e-8));
        assertThat(estimate.interval().high()).isCloseTo(Math.exp(0.1 + halfWidth), within(1e-8));
        assertThat(CellEstimate.startValue(new double[] {1, 4})).isCloseTo(2, within(1e-12));
    }

    @Test
    void theIntervalOverStartsCoversTheTrueValue() {
        Random random = new Random(41);
        int covered = 0;
        for (int trial = 0; trial < 2000; trial++) {
            double[][] trials = VarianceComponentsTest.simulate(random, 4, 5, 5, 0.08, 0.10);
            covered += CellEstimate.of(trials, 0.95).interval().contains(250) ? 1 : 0;
        }
        assertThat(covered / 2000.0).isBetween(0.935, 0.965);
    }

    @Test
    void oneStartGivesAFlaggedWithinStartIntervalThatMissesBetweenStartNoise() {
        // Why the flag: with between-start noise twice the window noise, a one-start interval over its windows
        // covers the true value far less often than it claims.
        Random random = new Random(42);
        int covered = 0;
        for (int trial = 0; trial < 2000; trial++) {
            CellEstimate.Estimate estimate = CellEstimate.of(VarianceComponentsTest.simulate(random, 1, 6, 6,
                    0.10, 0.05), 0.95);
            assertThat(estimate.coverage()).isEqualTo(CellEstimate.Coverage.WITHIN_ONE_START_ONLY);
            covered += estimate.interval().contains(250) ? 1 : 0;
        }
        assertThat(covered / 2000.0).isLessThan(0.6);
    }

    @Test
    void oneWindowHasNoInterval() {
        CellEstimate.Estimate estimate = CellEstimate.of(new double[][] {{42}}, 0.95);

        assertThat(estimate.coverage()).isEqualTo(CellEstimate.Coverage.NONE);
        assertThat(estimate.value()).isCloseTo(42, within(1e-12));
        assertThat(estimate.interval().isBounded()).isFalse();
    }
}
