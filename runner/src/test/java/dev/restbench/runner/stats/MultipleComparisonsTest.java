package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class MultipleComparisonsTest {

    /** Benjamini & Hochberg (1995), section 4: the 15 p-values of the myocardial infarction study. */
    private static final double[] BH_PAPER = {0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
            0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000};

    @Test
    void holmOnASmallVectorMatchesRsPAdjust() {
        // p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm"): sorted 0.005×4, 0.01×3, 0.03×2, then max(0.06, 0.04×1).
        double[] adjusted = MultipleComparisons.holm(new double[] {0.01, 0.04, 0.03, 0.005});
        assertThat(adjusted).containsExactly(new double[] {0.03, 0.06, 0.06, 0.02}, within(1e-12));
    }

    @Test
    void benjaminiHochbergOnASmallVectorMatchesRsPAdjust() {
        double[] adjusted = MultipleComparisons.benjaminiHochberg(new double[] {0.01, 0.04, 0.03, 0.005});
        assertThat(adjusted).containsExactly(new double[] {0.02, 0.04, 0.04, 0.02}, within(1e-12));
    }

    @Test
    void thePapersExampleRejectsFourWithBhAndThreeWithHolm() {
        double[] q = MultipleComparisons.benjaminiHochberg(BH_PAPER);
        // By hand: m/i · p_(i), then the running minimum from the largest p down.
        assertThat(q[3]).isCloseTo(0.0095 * 15 / 4, within(1e-12));
        assertThat(q[4]).isCloseTo(0.0201 * 15 / 5, within(1e-12));
        assertThat(q[5]).isCloseTo(0.0298 * 15 / 7, within(1e-12));
        assertThat(q[14]).isEqualTo(1.0);
        assertThat(count(MultipleComparisons.rejected(q, 0.05))).isEqualTo(4);

        double[] holm = MultipleComparisons.holm(BH_PAPER);
        assertThat(holm[2]).isCloseTo(0.0019 * 13, within(1e-12));
        assertThat(holm[3]).isCloseTo(0.0095 * 12, within(1e-12));
        assertThat(count(MultipleComparisons.rejected(holm, 0.05))).isEqualTo(3);
    }

    @Test
    void holmIsNeverLessStrictThanBh() {
        Random random = new Random(11);
        for (int trial = 0; trial < 200; trial++) {
            double[] p = new double[1 + random.nextInt(30)];
            for (int i = 0; i < p.length; i++) {
                p[i] = Math.pow(random.nextDouble(), 3);
            }
            double[] holm = MultipleComparisons.holm(p);
            double[] bh = MultipleComparisons.benjaminiHochberg(p);
            for (int i = 0; i < p.length; i++) {
                assertThat(holm[i]).isGreaterThanOrEqualTo(bh[i] - 1e-15).isGreaterThanOrEqualTo(p[i]);
                assertThat(bh[i]).isGreaterThanOrEqualTo(p[i]).isLessThanOrEqualTo(1);
            }
        }
    }

    @Test
    void holmKeepsTheFamilyWiseErrorAtAlphaUnderTheNull() {
        Random random = new Random(12);
        int anyRejected = 0;
        int families = 20_000;
        for (int f = 0; f < families; f++) {
            double[] p = new double[10];
            for (int i = 0; i < p.length; i++) {
                p[i] = random.nextDouble();
            }
            if (count(MultipleComparisons.rejected(MultipleComparisons.holm(p), 0.05)) > 0) {
                anyRejected++;
            }
        }
        // Exactly 1 − 0.995^10 = 4.89 % for independent uniform p-values.
        assertThat((double) anyRejected / families).isBetween(0.043, 0.055);
    }

    @Test
    void emptyAndInvalidInput() {
        assertThat(MultipleComparisons.holm(new double[0])).isEmpty();
        assertThatThrownBy(() -> MultipleComparisons.benjaminiHochberg(new double[] {0.1, Double.NaN}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> MultipleComparisons.holm(new double[] {1.5}))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static int count(boolean[] flags) {
        int n = 0;
        for (boolean flag : flags) {
            n += flag ? 1 : 0;
        }
        return n;
    }
}
