package dev.restbench.runner.stats;

import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.BinomialTest;

/**
 * Failures of two sides started once each per round (an interleaved A/B), compared round by round: McNemar's exact
 * test. Only the discordant rounds, where exactly one side failed, carry evidence; under "both sides fail equally
 * often" each of them is the head's with probability ½ whatever that common rate is, so the one-sided p-value that
 * the head fails more often is P(X ≥ headOnly) for X ~ Binomial(headOnly + baseOnly, ½).
 *
 * <p>Why not "one failed head start is a failed cell": with the same jar on both sides failing 0.5 % of its starts,
 * that rule turned 26 % of 7-round jersey A/As red (docs/method.md, "A failure is a failure"), more with more
 * rounds. This test cannot go below 2^(−discordant rounds): a head that fails in 5 rounds where base never did gives
 * 1/32.
 *
 * @param rounds   rounds in which both sides were started
 * @param headOnly rounds in which the head failed and the base was measured
 * @param baseOnly rounds in which the base failed and the head was measured
 * @param both     rounds in which both failed (no evidence either way)
 */
public record PairedFailures(int rounds, int headOnly, int baseOnly, int both) {

    public PairedFailures {
        if (rounds < 0 || headOnly < 0 || baseOnly < 0 || both < 0 || headOnly + baseOnly + both > rounds) {
            throw new IllegalArgumentException("inconsistent counts: " + rounds + " rounds, " + headOnly + " head only, "
                    + baseOnly + " base only, " + both + " both");
        }
    }

    public boolean any() {
        return headOnly + baseOnly + both > 0;
    }

    /** One-sided exact p-value that the head fails more often than the base (1 when it never failed alone). */
    public double pHeadWorse() {
        return tail(headOnly, headOnly + baseOnly);
    }

    /** One-sided exact p-value that the base fails more often than the head. */
    public double pBaseWorse() {
        return tail(baseOnly, headOnly + baseOnly);
    }

    /**
     * The fewest rounds in which "failed in every one, the other side in none" is a crash, not chance: whatever rate
     * both sides share, that happens by chance with probability f^n (1 − f)^n ≤ 4^(−n), 1.6 % at three rounds but
     * 6.25 % at two (simulated: 6.0 % of 2-round A/As of a jar failing 40 % of its starts).
     */
    public static final int ALWAYS_MIN_ROUNDS = 3;

    /** A side that failed in every round while the other never did, over at least three rounds: a crash. */
    public boolean headAlwaysFails() {
        return rounds >= ALWAYS_MIN_ROUNDS && headOnly == rounds;
    }

    public boolean baseAlwaysFails() {
        return rounds >= ALWAYS_MIN_ROUNDS && baseOnly == rounds;
    }

    private static double tail(int successes, int trials) {
        if (trials == 0 || successes == 0) {
            return 1;
        }
        return BinomialTest.withDefaults().with(AlternativeHypothesis.GREATER_THAN)
                .test(trials, successes, 0.5).getPValue();
    }
}
