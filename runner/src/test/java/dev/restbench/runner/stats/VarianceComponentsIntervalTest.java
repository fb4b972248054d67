package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** D8: the precision of the variance components and of the A/A paired spread. */
class VarianceComponentsIntervalTest {

    /** Starts × windows drawn with the given log-scale sds. */
    private static double[][] draw(int starts, int windows, double between, double within, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double[][] out = new double[starts][windows];
        for (int t = 0; t < starts; t++) {
            double u = between * random.nextGaussian();
            for (int w = 0; w < windows; w++) {
                out[t][w] = 100 * Math.exp(u + within * random.nextGaussian());
            }
        }
        return out;
    }

    /**
     * The review's figure: 8 starts × 3 windows at 10.8 % between and 5.5 % within have a 90 % sampling range of
     * about 5.4–15.7 %. The bootstrap interval around one such sample is that wide, and 40 starts are much narrower.
     */
    @Test
    void eightStartsLeaveTheBetweenStartCvWideOpenAndFortyNarrowIt() {
        Interval eight = VarianceComponents.betweenCvInterval(draw(8, 3, 0.108, 0.055, 1), 0.90, 2000, 7);
        Interval forty = VarianceComponents.betweenCvInterval(draw(40, 3, 0.055, 0.039, 2), 0.90, 2000, 7);
        assertThat(eight.high() - eight.low()).isBetween(6.0, 16.0);
        assertThat(forty.high() - forty.low()).isLessThan(4.0);
        assertThat(forty.low()).isLessThan(5.5);
        assertThat(forty.high()).isGreaterThan(4.5);
    }

    /** Coverage: over many samples the 90 % interval holds the true CV about 90 % of the time. */
    @Test
    void theBootstrapIntervalCoversTheTrueCvAboutAsOftenAsItSays() {
        int covered = 0;
        int samples = 200;
        double trueCv = 100 * Math.sqrt(Math.expm1(0.055 * 0.055));
        for (int i = 0; i < samples; i++) {
            Interval interval = VarianceComponents.betweenCvInterval(draw(20, 3, 0.055, 0.039, 100 + i), 0.90, 400, i);
            covered += interval.low() <= trueCv && trueCv <= interval.high() ? 1 : 0;
        }
        assertThat(covered / (double) samples).isBetween(0.78, 0.97);
    }

    @Test
    void thePairedSpreadHasItsChiSquaredInterval() {
        // sd 0.0837 (the paired log ratio of jersey's CPU, 8.4 %) from 20 rounds: 90 % interval about ×0.79–×1.39.
        SplittableRandom random = new SplittableRandom(3);
        double[] d = new double[20];
        for (int i = 0; i < d.length; i++) {
            d[i] = 0.0837 * random.nextGaussian();
        }
        double[] spread = VarianceComponents.pairedSd(d, 0.90);
        assertThat(spread[1] / spread[0]).isBetween(0.76, 0.82);
        assertThat(spread[2] / spread[0]).isBetween(1.33, 1.45);
        assertThat(VarianceComponents.pairedSd(new double[] {0.1, -0.1}, 0.90)).isNull();
    }
}
