package dev.restbench.runner.analysis;

/** The verdict for one series when a head run is compared with a base run. */
public enum Verdict {
    REGRESSION("regression"),
    IMPROVEMENT("improvement"),
    WITHIN_NOISE("within-noise"),
    INCONCLUSIVE("inconclusive"),
    NOT_COMPARABLE("not-comparable");

    private final String json;

    Verdict(String json) {
        this.json = json;
    }

    public String json() {
        return json;
    }
}
