package dev.restbench.runner.stats;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PairedRatioTest {

    /** Table values: t_{0.975, 3} and t_{0.80, 3}. */
    private static final double T975_3 = 3.182446305;
    private static final double T80_3 = 0.978472312;

    @Test
    void handCheckedPairedTOnLogRatios() {
        // d = ln(head/base) = 0.1, 0.2, 0.3, 0.4: mean 0.25, sd 0.129099, t = 3.872983 with 3 df.
        double[] base = {100, 200, 50, 10};
        double[] head = {100 * Math.exp(0.1), 200 * Math.exp(0.2), 50 * Math.exp(0.3), 10 * Math.exp(0.4)};

        PairedRatio.Result result = PairedRatio.tTest(base, head, 0.95, 0.8);

        double sd = Math.sqrt(0.05 / 3);
        double t = 0.25 / (sd / 2);
        // Student's t with 3 df has a closed-form CDF: 1/2 + (1/π)(u/(1+u²) + atan u), u = t/√3.
        double u = t / Math.sqrt(3);
        double twoSidedP = 1 - 2 / Math.PI * (u / (1 + u * u) + Math.atan(u));
        assertThat(result.status()).isEqualTo(PairedRatio.Status.ESTIMATED);
        assertThat(result.blocks()).isEqualTo(4);
        assertThat(result.ratio()).isCloseTo(Math.exp(0.25), within(1e-12));
        assertThat(result.pValue()).isCloseTo(twoSidedP, within(1e-9)).isCloseTo(0.0305, within(5e-4));
        assertThat(result.sdLog()).isCloseTo(sd, within(1e-12));
        assertThat(result.interval().low()).isCloseTo(Math.exp(0.25 - T975_3 * sd / 2), within(1e-8));
        assertThat(result.interval().high()).isCloseTo(Math.exp(0.25 + T975_3 * sd / 2), within(1e-8));
        assertThat(result.minDetectableChange())
                .isCloseTo(Math.exp((T975_3 + T80_3) * sd / 2) - 1, within(1e-8));
        assertThat(result.changePct()).isCloseTo((Math.exp(0.25) - 1) * 100, within(1e-9));
    }

    @Test
    void pairingSeesAFivePercentStepUnderFivePercentDriftBetweenBlocks() {
        // The case: 5 % drift between blocks, 1 % noise inside them; unpaired tests drown in the drift.
        Random random = new Random(21);
        int detected = 0;
        for (int trial = 0; trial < 500; trial++) {
            double[][] blocks = blocks(random, 5, 0.05, 0.01, 1.05);
            PairedRatio.Result result = PairedRatio.tTest(blocks[0], blocks[1], 0.95, 0.8);
            if (result.pValue() < 0.05 && result.ratio() > 1) {
                detected++;
            }
        }
        assertThat(detected / 500.0).isGreaterThanOrEqualTo(0.95);
    }

    @Test
    void withoutAChangeTheTestRejectsAtItsLevelAndTheIntervalCoversOne() {
        Random random = new Random(22);
        int rejected = 0;
        int covered = 0;
        int trials = 4000;
        for (int trial = 0; trial < trials; trial++) {
            double[][] blocks = blocks(random, 4, 0.05, 0.02, 1.0);
            PairedRatio.Result result = PairedRatio.tTest(blocks[0], blocks[1], 0.95, 0.8);
            rejected += result.pValue() < 0.05 ? 1 : 0;
            covered += result.interval().contains(1.0) ? 1 : 0;
        }
        assertThat((double) rejected / trials).isBetween(0.04, 0.06);
        assertThat((double) covered / trials).isEqualTo(1 - (double) rejected / trials, within(1e-12));
    }

    @Test
    void theIntervalCoversTheTrueRatioAtItsLevel() {
        Random random = new Random(23);
        int covered = 0;
        int trials = 4000;
        for (int trial = 0; trial < trials; trial++) {
            double[][] blocks = blocks(random, 6, 0.03, 0.03, 1.10);
            covered += PairedRatio.tTest(blocks[0], blocks[1], 0.90, 0.8).interval().contains(1.10) ? 1 : 0;
        }
        assertThat((double) covered / trials).isBetween(0.885, 0.915);
    }

    @Test
    void tooFewBlocksGiveNoVerdictAndNoNaN() {
        PairedRatio.Result none = PairedRatio.tTest(new double[0], new double[0], 0.95, 0.8);
        PairedRatio.Result one = PairedRatio.tTest(new double[] {100}, new double[] {110}, 0.95, 0.8);

        assertThat(none.status()).isEqualTo(PairedRatio.Status.TOO_FEW_BLOCKS);
        assertThat(none.ratio()).isEqualTo(1.0);
        assertThat(one.status()).isEqualTo(PairedRatio.Status.TOO_FEW_BLOCKS);
        assertThat(one.ratio()).isCloseTo(1.1, within(1e-12));
        assertThat(one.pValue()).isEqualTo(1.0);
        assertThat(one.interval().isBounded()).isFalse();
        assertThat(one.interval().contains(1.1)).isTrue();
        assertThat(one.minDetectableChange()).isInfinite();
    }

    @Test
    void identicalLogRatiosAreADegenerateResultNotNaN() {
        PairedRatio.Result same = PairedRatio.tTest(new double[] {10, 20, 30}, new double[] {10, 20, 30}, 0.95, 0.8);
        PairedRatio.Result shifted = PairedRatio.tTest(new double[] {10, 20}, new double[] {11, 22}, 0.95, 0.8);

        assertThat(same.status()).isEqualTo(PairedRatio.Status.NO_SPREAD);
        assertThat(same.pValue()).isEqualTo(1.0);
        assertThat(same.interval().contains(1.0)).isTrue();
        assertThat(shifted.status()).isEqualTo(PairedRatio.Status.NO_SPREAD);
        // The sign test's: both blocks moving the same way happens half the time by chance.
        assertThat(shifted.pValue()).isEqualTo(0.5);
        assertThat(shifted.ratio()).isCloseTo(1.1, within(1e-12));
        assertThat(shifted.minDetectableChange()).isZero();
    }

    /** A discrete metric that moves the same in every block is judged by the sign test: 2^(1−n), never 0. */
    @Test
    void identicalNonZeroLogRatiosGetTheSignTestsPValue() {
        double[] base = {1.41, 1.41, 1.41, 1.41, 1.41, 1.41, 1.41, 1.41};
        double[] head = {1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0};
        for (int n = 2; n <= 8; n++) {
            PairedRatio.Result result = PairedRatio.tTest(java.util.Arrays.copyOf(base, n),
                    java.util.Arrays.copyOf(head, n), 0.95, 0.8);
            assertThat(result.pValue()).as("n = %d", n).isCloseTo(Math.pow(2, 1 - n), within(1e-12));
        }
    }

    /**
     * The review's TieCheck (D2): a pool's peak connections as run.json stores them, 6 significant digits. Base
     * GM(2,2,2) = 2 and GM(2,2,1) = 1.5874, head GM(2,1,1) = 1.25992 and GM(1,1,1) = 1: both ratios are 2^(−2/3), but
     * rounding makes them differ in the sixth digit, and the t-test gave p = 1.03·10⁻⁶ (three rounds: 4·10⁻¹²).
     */
    @Test
    void ratiosTiedUpToSixDigitRoundingAreTiesWithTheSignTestsPValue() {
        PairedRatio.Result two = PairedRatio.tTest(new double[] {2.0, 1.5874}, new double[] {1.25992, 1.0}, 0.9, 0.8);
        PairedRatio.Result three = PairedRatio.tTest(new double[] {1.81712, 1.25992, 1.44225},
                new double[] {2.28943, 1.5874, 1.81712}, 0.9, 0.8);

        assertThat(two.status()).isEqualTo(PairedRatio.Status.NO_SPREAD);
        assertThat(two.pValue()).isEqualTo(0.5);
        assertThat(two.pBelow()).isEqualTo(0.25);
        assertThat(two.pAbove()).isEqualTo(1.0);
        assertThat(two.changePct()).isCloseTo(-37.0, within(0.1));
        assertThat(three.status()).isEqualTo(PairedRatio.Status.NO_SPREAD);
        assertThat(three.pValue()).isEqualTo(0.25);
        assertThat(three.pAbove()).isEqualTo(0.125);
    }

    @Test
    void signFlipPValuesAreTheShareOfSignPatternsAtLeastAsExtreme() {
        // S = Σd = 1.0 for 0.1, 0.2, 0.3, 0.4: only the all-plus pattern reaches it.
        PairedRatio.PValues allUp = PairedRatio.pValues(new double[] {0.1, 0.2, 0.3, 0.4}, PairedRatio.Test.SIGN_FLIP);
        assertThat(allUp.above()).isCloseTo(1.0 / 16, within(1e-15));
        assertThat(allUp.below()).isCloseTo(1.0, within(1e-15));
        assertThat(allUp.twoSided()).isCloseTo(2.0 / 16, within(1e-15));
        // S = 0.6 for 0.1, −0.2, 0.3, 0.4: 1.0, 0.8 and 0.6 itself (flipping 0.2) are ≥ S.
        PairedRatio.PValues mixed = PairedRatio.pValues(new double[] {0.1, -0.2, 0.3, 0.4}, PairedRatio.Test.SIGN_FLIP);
        assertThat(mixed.above()).isCloseTo(3.0 / 16, within(1e-15));
        Random random = new Random(31);
        for (int trial = 0; trial < 200; trial++) {
            int n = 2 + random.nextInt(9);
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                d[i] = random.nextInt(7) == 0 ? 0 : Math.round(random.nextGaussian() * 4) / 10.0 + 0.05;
            }
            if (PairedRatio.tied(d)) {
                continue;
            }
            assertThat(PairedRatio.pValues(d, PairedRatio.Test.SIGN_FLIP)).as(java.util.Arrays.toString(d))
                    .isEqualTo(bruteForceSignFlip(d));
        }
    }

    @Test
    void beyondTwentyBlocksTheSignFlipTestSamplesAndStaysCloseToTheExactValue() {
        Random random = new Random(32);
        double[] d = new double[22];
        for (int i = 0; i < d.length; i++) {
            d[i] = 0.02 + 0.05 * random.nextGaussian();
        }
        PairedRatio.PValues exact = bruteForceSignFlip(d);
        PairedRatio.PValues sampled = PairedRatio.pValues(d, PairedRatio.Test.SIGN_FLIP);
        assertThat(sampled.above()).isCloseTo(exact.above(), within(0.002));
        assertThat(sampled.twoSided()).isCloseTo(exact.twoSided(), within(0.002));
    }

    /** Discrete metrics with spread: the sign-flip test, not the t-test, and never below 2^(1−n). */
    @Test
    void theSignFlipTestCannotGoBelowItsExactFloor() {
        double[] base = {1.5, 1.41421, 1.5, 1.41421};
        double[] head = {1.0, 1.05, 1.0, 1.06};
        PairedRatio.Result t = PairedRatio.test(base, head, 0.9, 0.8, PairedRatio.Test.T);
        PairedRatio.Result flip = PairedRatio.test(base, head, 0.9, 0.8, PairedRatio.Test.SIGN_FLIP);
        assertThat(t.pValue()).isLessThan(0.002);
        assertThat(flip.pValue()).isEqualTo(0.125);
        assertThat(flip.pBelow()).isEqualTo(0.0625);
        assertThat(flip.interval()).isEqualTo(t.interval());
        assertThat(flip.status()).isEqualTo(PairedRatio.Status.ESTIMATED);
    }

    @Test
    void oneSidedTPValuesHalveTheTwoSidedOneOnTheObservedSide() {
        double[] d = {0.1, 0.2, 0.3, 0.4};
        PairedRatio.PValues p = PairedRatio.pValues(d, PairedRatio.Test.T);
        assertThat(p.above()).isCloseTo(p.twoSided() / 2, within(1e-12));
        assertThat(p.below()).isCloseTo(1 - p.twoSided() / 2, within(1e-12));
    }

    private static PairedRatio.PValues bruteForceSignFlip(double[] d) {
        int n = d.length;
        double observed = java.util.Arrays.stream(d).sum();
        double eps = 1e-9 * java.util.Arrays.stream(d).map(Math::abs).sum();
        long above = 0;
        long below = 0;
        long extreme = 0;
        for (long mask = 0; mask < (1L << n); mask++) {
            double sum = 0;
            for (int i = 0; i < n; i++) {
                sum += ((mask >> i) & 1) == 1 ? -Math.abs(d[i]) : Math.abs(d[i]);
            }
            above += sum >= observed - eps ? 1 : 0;
            below += sum <= observed + eps ? 1 : 0;
            extreme += Math.abs(sum) >= Math.abs(observed) - eps ? 1 : 0;
        }
        double total = 1L << n;
        return new PairedRatio.PValues(extreme / total, above / total, below / total);
    }

    @Test
    void minimumDetectableChangeShrinksWithTheSquareRootOfBlocks() {
        double four = PairedRatio.minDetectableChange(0.05, 4, 0.05, 0.8);
        double sixteen = PairedRatio.minDetectableChange(0.05, 16, 0.05, 0.8);
        assertThat(four).isCloseTo(Math.exp((T975_3 + T80_3) * 0.05 / 2) - 1, within(1e-8));
        // Two blocks: (t_{0.975, 1} + t_{0.8, 1}) / √2 = (12.706 + 1.376) / 1.414 makes 1 % noise need a 10.5 % change.
        assertThat(PairedRatio.minDetectableChange(0.01, 2, 0.05, 0.8)).isBetween(0.104, 0.106);
        assertThat(sixteen).isLessThan(four / 2);
    }

    /** n blocks: {base[], head[]}; each block shares a drift, each start has its own noise. */
    static double[][] blocks(Random random, int n, double driftSd, double noiseSd, double ratio) {
        double[][] blocks = new double[2][n];
        for (int b = 0; b < n; b++) {
            double drift = 1000 * Math.exp(driftSd * random.nextGaussian());
            blocks[0][b] = drift * Math.exp(noiseSd * random.nextGaussian());
            blocks[1][b] = ratio * drift * Math.exp(noiseSd * random.nextGaussian());
        }
        return blocks;
    }
}
