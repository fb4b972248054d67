package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CellRatioTest {

    @Test
    void twoStartsEachGiveWelchsIntervalOverTheStartValues() {
        // Start values 100, 110 against 50, 55: ratio 2; log sds equal, so df = 2 and t = 4.302653.
        double[][] a = {{100, 100}, {110, 110}};
        double[][] b = {{50, 50}, {55, 55}};
        CellRatio.Estimate e = CellRatio.of(a, b, 0.95);
        assertThat(e.ratio()).isCloseTo(2.0, within(1e-12));
        assertThat(e.coverage()).isEqualTo(CellEstimate.Coverage.BETWEEN_STARTS);
        double se = Math.sqrt(2 * Math.pow(Math.log(1.1), 2) / 2 / 2);
        assertThat(e.interval().low()).isCloseTo(2 * Math.exp(-4.302653 * se), within(1e-5));
        assertThat(e.interval().high()).isCloseTo(2 * Math.exp(4.302653 * se), within(1e-5));
    }

    @Test
    void oneStartEachUsesItsWindowsAndSaysSo() {
        CellRatio.Estimate e = CellRatio.of(new double[][] {{200, 210, 190}}, new double[][] {{100, 101, 99}}, 0.95);
        assertThat(e.coverage()).isEqualTo(CellEstimate.Coverage.WITHIN_ONE_START_ONLY);
        assertThat(e.interval().isBounded()).isTrue();
        assertThat(e.interval().contains(e.ratio())).isTrue();
        assertThat(CellRatio.of(new double[][] {{200}}, new double[][] {{100}}, 0.95).interval().isBounded()).isFalse();
        // Mixed designs (three starts against one) are not compared as if they were alike.
        assertThat(CellRatio.of(new double[][] {{200}, {210}, {190}}, new double[][] {{100, 101}}, 0.95).coverage())
                .isEqualTo(CellEstimate.Coverage.NONE);
    }

    /** The interval's promise, checked by simulation: about 95 % of them cover the true ratio. */
    @Test
    void coversTheTrueRatioAboutNineteenTimesInTwenty() {
        Random random = new Random(3);
        int covered = 0;
        int trials = 4000;
        for (int t = 0; t < trials; t++) {
            double[][] a = new double[3][];
            double[][] b = new double[4][];
            for (int s = 0; s < a.length; s++) {
                a[s] = new double[] {300 * Math.exp(0.10 * random.nextGaussian())};
            }
            for (int s = 0; s < b.length; s++) {
                b[s] = new double[] {100 * Math.exp(0.03 * random.nextGaussian())};
            }
            if (CellRatio.of(a, b, 0.95).interval().contains(3.0)) {
                covered++;
            }
        }
        assertThat(covered / (double) trials).isBetween(0.93, 0.97);
    }
}
