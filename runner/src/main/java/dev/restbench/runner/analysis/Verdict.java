package dev.restbench.runner.analysis;

/** The verdict for one series (docs/method.md, "Verdicts"); spelled as {@link #json()} in the history files. */
public enum Verdict {
    /** Significantly worse after the correction for the family, by at least the minimum effect. */
    REGRESSION("regression"),
    /** Significantly better after the correction, by at least the minimum effect; or a base failure the head fixed. */
    IMPROVEMENT("improvement"),
    /** The confidence interval of the change lies inside ± the minimum effect: no change that matters. */
    NO_CHANGE("no-change"),
    /** Neither: the run could not tell (the reason says why, e.g. the smallest change it could have detected). */
    INCONCLUSIVE("inconclusive"),
    /** The head cell failed (crash, error budget, latency bound) where the base succeeded: regression-class. */
    FAILED("failed"),
    /** Too little evidence for any verdict (e.g. fewer than 10 comparable past runs): the number is shown alone. */
    NO_VERDICT("no-verdict"),
    /** Different environment, method or profile: never compared. */
    NOT_COMPARABLE("not-comparable");

    private final String json;

    Verdict(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }

    /** A regression or a failure: what turns a headline red and fails --fail-on-regression. */
    public boolean bad() {
        return this == REGRESSION || this == FAILED;
    }

    /**
     * Decided either way: an A/B with a share of α for early looks would stop once every primary series is decided
     * ({@code ab.SequentialRule}; ./bench ab spends none and judges once, after its last round).
     */
    public boolean decided() {
        return this != INCONCLUSIVE;
    }
}
