package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The five synthetic series of issue 10, seeded, 200 series each, 2 % noise. Measured rates are in the comments;
 * the assertions are lower (or upper) bounds with some room for other seeds.
 */
class ChangePointsTest {

    private static final int SERIES = 200;
    private static final double NOISE = 0.02;

    @Test
    void noStepGivesNoChangePointInAtLeastNinetyFivePercentOfSeries() {
        Random random = new Random(61);
        int withChange = 0;
        for (int s = 0; s < SERIES; s++) {
            withChange += ChangePoints.detect(series(random, 40, 0, 0)).isEmpty() ? 0 : 1;
        }
        // Measured: 3 of 200.
        assertThat(withChange).isLessThanOrEqualTo(SERIES / 20);
    }

    @Test
    void aFivePercentStepIsFoundSoonAfterItHappens() {
        // 30 settled runs, then k runs 5 % higher; found = a change point within 2 runs of the step.
        // Measured 65.5 / 90.5 / 94 % after 3 / 5 / 8 runs (today's analysis.ChangePoints, Welch's test and splits
        // only against the interval's end: 15 / 36 / 86 % on series of the same kind, other seeds).
        assertThat(detectionRate(3, 62)).isGreaterThanOrEqualTo(0.60);
        assertThat(detectionRate(5, 63)).isGreaterThanOrEqualTo(0.82);
        assertThat(detectionRate(8, 64)).isGreaterThanOrEqualTo(0.88);
    }

    @Test
    void twoStepsAreBothFoundNearTheirPlaces() {
        Random random = new Random(65);
        int both = 0;
        for (int s = 0; s < SERIES; s++) {
            double[] values = new double[60];
            for (int i = 0; i < values.length; i++) {
                double level = i < 20 ? 100 : i < 40 ? 106 : 99;
                values[i] = level * (1 + NOISE * random.nextGaussian());
            }
            List<Integer> indices = indices(ChangePoints.detect(values));
            boolean first = indices.stream().anyMatch(i -> Math.abs(i - 20) <= 2);
            boolean second = indices.stream().anyMatch(i -> Math.abs(i - 40) <= 2);
            both += first && second ? 1 : 0;
        }
        // Measured: 189 of 200.
        assertThat(both).isGreaterThanOrEqualTo(SERIES * 9 / 10);
    }

    @Test
    void oneOutlierIsNoChangePoint() {
        Random random = new Random(66);
        int inMiddle = 0;
        int atEnd = 0;
        for (int s = 0; s < SERIES; s++) {
            double[] middle = series(random, 40, 0, 0);
            middle[20] *= 1.20;
            inMiddle += ChangePoints.detect(middle).isEmpty() ? 0 : 1;
            double[] end = series(random, 40, 0, 0);
            end[39] *= 1.20;
            atEnd += ChangePoints.detect(end).isEmpty() ? 0 : 1;
        }
        // Measured: 0 and 1 of 200.
        assertThat(inMiddle).isLessThanOrEqualTo(SERIES / 50);
        assertThat(atEnd).isLessThanOrEqualTo(SERIES / 50);
    }

    @Test
    void twoOutliersAtTheNewestEndAreNoChangePoint() {
        Random random = new Random(67);
        int large = 0;
        int moderate = 0;
        for (int s = 0; s < SERIES; s++) {
            large += ChangePoints.detect(twoOutliersAtEnd(random, 1.20)).isEmpty() ? 0 : 1;
            moderate += ChangePoints.detect(twoOutliersAtEnd(random, 1.10)).isEmpty() ? 0 : 1;
        }
        // Measured: 0 of 200 at +20 %; 17 of 200 at +10 % (5 σ; the pooled test alone flags ~80 %, see the class
        // comment of ChangePoints). Two runs 10 % off in a row look much like the start of a step.
        assertThat(large).isLessThanOrEqualTo(SERIES / 50);
        assertThat(moderate).isLessThanOrEqualTo(SERIES / 8);
    }

    @Test
    void aStepWithoutNoiseIsExact() {
        double[] values = {10, 10, 10, 10, 10, 12, 12, 12, 12};

        List<ChangePoints.ChangePoint> points = ChangePoints.detect(values);

        assertThat(points).hasSize(1);
        ChangePoints.ChangePoint point = points.get(0);
        assertThat(point.index()).isEqualTo(5);
        assertThat(point.before()).isEqualTo(10.0);
        assertThat(point.after()).isEqualTo(12.0);
        assertThat(point.deltaPct()).isCloseTo(20, within(1e-12));
        assertThat(point.pValue()).isZero();
    }

    @Test
    void shortConstantOrSmallStepSeriesHaveNoChangePoint() {
        assertThat(ChangePoints.detect(new double[] {1, 1, 5, 5, 5})).isEmpty();
        assertThat(ChangePoints.detect(new double[0])).isEmpty();
        assertThat(ChangePoints.detect(new double[] {3, 3, 3, 3, 3, 3, 3, 3})).isEmpty();
        // A clean 1 % step is significant but below the 2 % minimum effect.
        assertThat(ChangePoints.detect(new double[] {100, 100, 100, 100, 101, 101, 101, 101})).isEmpty();
        assertThat(ChangePoints.detect(new double[] {100, 100, 100, 100, 101, 101, 101, 101},
                new ChangePoints.Settings(50, 0.001, 0.5, 3))).hasSize(1);
    }

    @Test
    void aLongHistoryDoesNotDiluteARecentStep() {
        // The sliding windows: 200 settled runs before the step do not hide 5 runs after it.
        Random random = new Random(68);
        int found = 0;
        for (int s = 0; s < 50; s++) {
            found += indices(ChangePoints.detect(series(random, 205, 200, 0.08))).contains(200) ? 1 : 0;
        }
        // Measured: 48 of 50.
        assertThat(found).isGreaterThanOrEqualTo(45);
    }

    private static double detectionRate(int runsAfter, long seed) {
        Random random = new Random(seed);
        int found = 0;
        for (int s = 0; s < SERIES; s++) {
            List<Integer> indices = indices(ChangePoints.detect(series(random, 30 + runsAfter, 30, 0.05)));
            found += indices.stream().anyMatch(i -> Math.abs(i - 30) <= 2) ? 1 : 0;
        }
        System.out.printf("5 %% step in 2 %% noise, %d runs after it: found in %.1f %% of %d series%n", runsAfter,
                100.0 * found / SERIES, SERIES);
        return (double) found / SERIES;
    }

    private static double[] twoOutliersAtEnd(Random random, double factor) {
        double[] values = series(random, 40, 0, 0);
        values[38] *= factor;
        values[39] *= factor;
        return values;
    }

    /** n values around 100 in 2 % noise, multiplied by (1 + step) from index stepAt on (no step when 0). */
    private static double[] series(Random random, int n, int stepAt, double step) {
        double[] values = new double[n];
        for (int i = 0; i < n; i++) {
            double level = stepAt > 0 && i >= stepAt ? 100 * (1 + step) : 100;
            values[i] = level * (1 + NOISE * random.nextGaussian());
        }
        return values;
    }

    private static List<Integer> indices(List<ChangePoints.ChangePoint> points) {
        return points.stream().map(ChangePoints.ChangePoint::index).toList();
    }
}
