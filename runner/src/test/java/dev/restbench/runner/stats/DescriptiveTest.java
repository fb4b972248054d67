package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DescriptiveTest {

    /** The textbook sample with mean 5 and population variance 4. */
    private static final double[] SAMPLE = {2, 4, 4, 4, 5, 5, 7, 9};

    @Test
    void meanVarianceAndSdOfATextbookSample() {
        assertThat(Descriptive.mean(SAMPLE)).isEqualTo(5.0);
        assertThat(Descriptive.variance(SAMPLE)).isCloseTo(32.0 / 7, within(1e-12));
        assertThat(Descriptive.sd(SAMPLE)).isCloseTo(Math.sqrt(32.0 / 7), within(1e-12));
        assertThat(Descriptive.variance(new double[] {3})).isZero();
    }

    @Test
    void medianOfOddAndEvenSamples() {
        assertThat(Descriptive.median(new double[] {5, 1, 3})).isEqualTo(3.0);
        assertThat(Descriptive.median(SAMPLE)).isEqualTo(4.5);
    }

    @Test
    void quantileIsHyndmanFanDefinitionEight() {
        // HF8: h = (n + 1/3) p + 1/3 = 4.333 × 0.25 + 0.333 = 1.4167 → 1 + 0.4167 × (2 − 1).
        assertThat(Descriptive.quantile(new double[] {4, 3, 2, 1}, 0.25)).isCloseTo(1 + 5.0 / 12, within(1e-12));
        assertThat(Descriptive.quantile(SAMPLE, 0.5)).isEqualTo(Descriptive.median(SAMPLE));
    }

    @Test
    void madScaleIgnoresOneOutlier() {
        // Median 3, absolute deviations {2, 1, 0, 1, 97}: MAD 1.
        assertThat(Descriptive.madScale(new double[] {1, 2, 3, 4, 100})).isCloseTo(1.4826, within(1e-4));
    }

    @Test
    void geometricMeanAndLogs() {
        assertThat(Descriptive.geometricMean(new double[] {1, 10, 100})).isCloseTo(10, within(1e-12));
        assertThat(Descriptive.logs(new double[] {1, Math.E})).containsExactly(0, 1);
    }

    @Test
    void rejectsWhatHasNoAnswer() {
        assertThatThrownBy(() -> Descriptive.median(new double[0])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Descriptive.mean(new double[] {1, Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Descriptive.geometricMean(new double[] {1, 0}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    /** The values of a series are in round order; computing their median must not reorder them (pairing by round). */
    @Test
    void medianAndQuantileLeaveTheirInputInItsOrder() {
        double[] values = {3, 1, 2, 5, 4};
        Descriptive.median(values);
        Descriptive.quantile(values, 0.9);
        Summary.of(values);
        assertThat(values).containsExactly(3, 1, 2, 5, 4);
    }
}
