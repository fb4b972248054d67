package dev.restbench.runner.stats;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Corrections for judging many series at once. A PR compares hundreds of series; at 5 % each, some would be
 * "significant" by chance in nearly every PR. The few primary metrics are judged with Holm's step-down procedure
 * (Holm 1979), which controls the family-wise error rate (the chance of any false alarm among them) under any
 * dependence between the metrics and is uniformly more powerful than Bonferroni. The many secondary series are
 * judged with Benjamini & Hochberg (1995), which controls the false discovery rate (the expected share of false
 * alarms among the series flagged), valid for independent or positively dependent tests.
 *
 * <p>Commons Statistics has no multiple-comparison procedures, so these are written here. Both return adjusted
 * values in the order of the input (as R's p.adjust does): a series is rejected at level α when its adjusted
 * value is ≤ α, which is the same as running the step-down or step-up procedure at α.
 */
public final class MultipleComparisons {

    private MultipleComparisons() {
    }

    /** Holm-adjusted p-values: with p sorted ascending, max over j ≤ i of min(1, (m − j + 1) · p_(j)). */
    public static double[] holm(double[] pValues) {
        int m = pValues.length;
        Integer[] order = ascending(pValues);
        double[] adjusted = new double[m];
        double running = 0;
        for (int rank = 0; rank < m; rank++) {
            int i = order[rank];
            running = Math.max(running, Math.min(1, (m - rank) * pValues[i]));
            adjusted[i] = running;
        }
        return adjusted;
    }

    /** Benjamini–Hochberg q-values: with p sorted ascending, min over j ≥ i of min(1, m / j · p_(j)). */
    public static double[] benjaminiHochberg(double[] pValues) {
        int m = pValues.length;
        Integer[] order = ascending(pValues);
        double[] adjusted = new double[m];
        double running = 1;
        for (int rank = m - 1; rank >= 0; rank--) {
            int i = order[rank];
            running = Math.min(running, (double) m / (rank + 1) * pValues[i]);
            adjusted[i] = running;
        }
        return adjusted;
    }

    /** adjusted[i] ≤ level, per series. */
    public static boolean[] rejected(double[] adjusted, double level) {
        boolean[] rejected = new boolean[adjusted.length];
        for (int i = 0; i < adjusted.length; i++) {
            rejected[i] = adjusted[i] <= level;
        }
        return rejected;
    }

    private static Integer[] ascending(double[] pValues) {
        for (double p : pValues) {
            if (!(p >= 0 && p <= 1)) {
                throw new IllegalArgumentException("not a p-value: " + p);
            }
        }
        Integer[] order = new Integer[pValues.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparingDouble(i -> pValues[i]));
        return order;
    }
}
