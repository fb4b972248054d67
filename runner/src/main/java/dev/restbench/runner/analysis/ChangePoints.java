package dev.restbench.runner.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * Step changes in a series of run medians (oldest first), in the manner of Apache Otava (Hunter):
 * E-divisive means proposes split points (the split that maximises the energy distance between the two sides,
 * applied recursively to each side), and each proposal is kept only if Welch's t-test between its neighbouring
 * segments is significant and the step is at least a minimum effect size. After the recursive search the
 * surviving points are re-checked against their final neighbours, weakest first, until all of them hold.
 */
public final class ChangePoints {

    public static final int MIN_SEGMENT = 3;
    public static final double MAX_P_VALUE = 0.001;
    public static final double MIN_EFFECT_PCT = 2.0;

    /** A change between values[index - 1] and values[index]; before/after are the neighbouring segments' means. */
    public record ChangePoint(int index, double before, double after, double deltaPct, double pValue) {
    }

    private final int minSegment;
    private final double maxPValue;
    private final double minEffectPct;

    public ChangePoints() {
        this(MIN_SEGMENT, MAX_P_VALUE, MIN_EFFECT_PCT);
    }

    public ChangePoints(int minSegment, double maxPValue, double minEffectPct) {
        this.minSegment = minSegment;
        this.maxPValue = maxPValue;
        this.minEffectPct = minEffectPct;
    }

    public List<ChangePoint> detect(double[] values) {
        List<Integer> splits = new ArrayList<>();
        search(values, 0, values.length, splits);
        splits.sort(Integer::compare);
        return validate(values, splits);
    }

    private void search(double[] values, int from, int to, List<Integer> splits) {
        if (to - from < 2 * minSegment) {
            return;
        }
        int split = bestEnergySplit(values, from, to);
        if (split < 0) {
            return;
        }
        ChangePoint candidate = test(values, from, split, to);
        if (candidate == null) {
            return;
        }
        splits.add(split);
        search(values, from, split, splits);
        search(values, split, to, splits);
    }

    /** Drops the weakest point whose neighbouring segments no longer support it, until all hold. */
    private List<ChangePoint> validate(double[] values, List<Integer> splits) {
        while (true) {
            List<ChangePoint> points = new ArrayList<>();
            int weakest = -1;
            double weakestP = -1;
            for (int i = 0; i < splits.size(); i++) {
                int from = i == 0 ? 0 : splits.get(i - 1);
                int to = i == splits.size() - 1 ? values.length : splits.get(i + 1);
                ChangePoint point = test(values, from, splits.get(i), to);
                if (point == null) {
                    double p = StudentT.welchPValue(slice(values, from, splits.get(i)), slice(values, splits.get(i), to));
                    if (p > weakestP) {
                        weakestP = p;
                        weakest = i;
                    }
                } else {
                    points.add(point);
                }
            }
            if (weakest < 0) {
                return points;
            }
            splits.remove(weakest);
        }
    }

    /** The change point at split between [from, split) and [split, to), or null if it is not significant. */
    private ChangePoint test(double[] values, int from, int split, int to) {
        double[] left = slice(values, from, split);
        double[] right = slice(values, split, to);
        double before = Stats.mean(left);
        double after = Stats.mean(right);
        if (before == 0) {
            return null;
        }
        double deltaPct = (after - before) / Math.abs(before) * 100;
        double p = StudentT.welchPValue(left, right);
        if (p > maxPValue || Math.abs(deltaPct) < minEffectPct) {
            return null;
        }
        return new ChangePoint(split, before, after, deltaPct, p);
    }

    /**
     * The split maximising the E-divisive statistic (alpha = 1):
     * Q = m(n-m)/n x (2 mean|x-y| - mean|x-x'| - mean|y-y'|), both sides at least minSegment long.
     * Sums are updated incrementally as the split moves right, so one scan is O(n^2).
     */
    int bestEnergySplit(double[] values, int from, int to) {
        int n = to - from;
        double[] x = slice(values, from, to);
        // Start with left = x[0 .. minSegment), right = the rest.
        double withinLeft = 0;
        double withinRight = 0;
        double between = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double d = Math.abs(x[i] - x[j]);
                boolean iLeft = i < minSegment;
                boolean jLeft = j < minSegment;
                if (iLeft && jLeft) {
                    withinLeft += d;
                } else if (!iLeft && !jLeft) {
                    withinRight += d;
                } else {
                    between += d;
                }
            }
        }
        int best = -1;
        double bestQ = 0;
        for (int m = minSegment; m <= n - minSegment; m++) {
            if (m > minSegment) {
                // Move x[m-1] from the right side to the left side.
                int moved = m - 1;
                double toLeft = 0;
                double toRight = 0;
                for (int i = 0; i < moved; i++) {
                    toLeft += Math.abs(x[i] - x[moved]);
                }
                for (int j = moved + 1; j < n; j++) {
                    toRight += Math.abs(x[j] - x[moved]);
                }
                withinLeft += toLeft;
                withinRight -= toRight;
                between += toRight - toLeft;
            }
            int r = n - m;
            double meanBetween = between / ((double) m * r);
            double meanLeft = m > 1 ? withinLeft / (m * (m - 1) / 2.0) : 0;
            double meanRight = r > 1 ? withinRight / (r * (r - 1) / 2.0) : 0;
            double q = (double) m * r / n * (2 * meanBetween - meanLeft - meanRight);
            if (q > bestQ) {
                bestQ = q;
                best = from + m;
            }
        }
        return best;
    }

    private static double[] slice(double[] values, int from, int to) {
        double[] out = new double[to - from];
        System.arraycopy(values, from, out, 0, to - from);
        return out;
    }
}
