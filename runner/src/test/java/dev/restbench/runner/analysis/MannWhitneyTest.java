package dev.restbench.runner.analysis;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

class MannWhitneyTest {

    @Test
    void completeSeparationOfFiveAndFiveIsTwoIn252() {
        double p = MannWhitney.pValue(new double[] {1, 2, 3, 4, 5}, new double[] {6, 7, 8, 9, 10});

        assertThat(p).isCloseTo(2.0 / 252, offset(1e-12));
        assertThat(MannWhitney.smallestPossiblePValue(5, 5)).isCloseTo(2.0 / 252, offset(1e-12));
        assertThat(MannWhitney.smallestPossiblePValue(3, 3)).isCloseTo(0.1, offset(1e-12));
    }

    @Test
    void oneSwappedPairDoublesTheTailCount() {
        // Rank sum of the first sample 16 (expected 27.5): arrangements at least that far: 2 x 2 of 252.
        double p = MannWhitney.pValue(new double[] {1, 2, 3, 4, 6}, new double[] {5, 7, 8, 9, 10});

        assertThat(p).isCloseTo(4.0 / 252, offset(1e-12));
    }

    @Test
    void identicalSamplesGiveOne() {
        assertThat(MannWhitney.pValue(new double[] {3, 3, 3}, new double[] {3, 3, 3})).isEqualTo(1.0);
    }

    @Test
    void tiesAreCountedExactly() {
        // Pooled {1,2,2,3}: mid-ranks 1, 2.5, 2.5, 4; a = {1,2} has rank sum 3.5 (expected 5), |d| = 1.5.
        // Of the 6 ways to choose 2 of 4 ranks, sums 3.5, 3.5, 5, 5, 6.5, 6.5: 4 are at least 1.5 away.
        double p = MannWhitney.pValue(new double[] {1, 2}, new double[] {2, 3});

        assertThat(p).isCloseTo(4.0 / 6, offset(1e-12));
    }

    @Test
    void largeSamplesUseTheNormalApproximationConsistently() {
        double[] a = new double[15];
        double[] b = new double[15];
        for (int i = 0; i < 15; i++) {
            a[i] = i;
            b[i] = i + 15;
        }
        assertThat(MannWhitney.binomial(30, 15)).isGreaterThan(MannWhitney.EXACT_LIMIT);
        assertThat(MannWhitney.pValue(a, b)).isLessThan(1e-5);
    }
}
