package dev.restbench.runner.analysis;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class ChangePointsTest {

    private final ChangePoints detector = new ChangePoints();

    @Test
    void findsAStepAtItsIndex() {
        Random random = new Random(3);
        double[] series = new double[30];
        for (int i = 0; i < series.length; i++) {
            series[i] = (i < 17 ? 1000 : 920) * (1 + 0.01 * random.nextGaussian());
        }

        List<ChangePoints.ChangePoint> points = detector.detect(series);

        assertThat(points).hasSize(1);
        ChangePoints.ChangePoint point = points.get(0);
        assertThat(point.index()).isEqualTo(17);
        assertThat(point.deltaPct()).isBetween(-10.0, -6.0);
        assertThat(point.pValue()).isLessThan(ChangePoints.MAX_P_VALUE);
    }

    @Test
    void findsTwoSteps() {
        Random random = new Random(4);
        double[] series = new double[36];
        for (int i = 0; i < series.length; i++) {
            double level = i < 12 ? 100 : i < 24 ? 110 : 95;
            series[i] = level * (1 + 0.01 * random.nextGaussian());
        }

        assertThat(detector.detect(series)).extracting(ChangePoints.ChangePoint::index).containsExactly(12, 24);
    }

    @Test
    void aFlatNoisySeriesHasNoChangePoint() {
        Random random = new Random(5);
        for (int trial = 0; trial < 50; trial++) {
            double[] series = new double[25];
            for (int i = 0; i < series.length; i++) {
                series[i] = 500 * (1 + 0.02 * random.nextGaussian());
            }
            assertThat(detector.detect(series)).as("trial %d", trial).isEmpty();
        }
    }

    @Test
    void tooShortSeriesHaveNoChangePoint() {
        assertThat(detector.detect(new double[] {1, 1, 5, 5, 5})).isEmpty();
    }

    @Test
    void welchTestMatchesTheTTable() {
        // t = 2.228 with 10 degrees of freedom is the two-sided 5 % point.
        assertThat(StudentT.twoSidedP(2.228, 10)).isCloseTo(0.05, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(StudentT.normalCdf(1.959964)).isCloseTo(0.975, org.assertj.core.data.Offset.offset(1e-6));
    }
}
