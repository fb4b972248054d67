package dev.restbench.runner.analysis;

/** Which way is better for a metric; spelled "bigger" / "smaller" in run.json and the history files. */
public enum Direction {
    BIGGER, SMALLER;

    public String json() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public static Direction fromJson(String text) {
        if ("bigger".equals(text)) {
            return BIGGER;
        }
        if ("smaller".equals(text)) {
            return SMALLER;
        }
        throw new IllegalArgumentException("direction must be \"bigger\" or \"smaller\", was " + text);
    }

    /** True when moving from base to head by this signed amount makes things worse. */
    public boolean isWorse(double delta) {
        return this == BIGGER ? delta < 0 : delta > 0;
    }
}
