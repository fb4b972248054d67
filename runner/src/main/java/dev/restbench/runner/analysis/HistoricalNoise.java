package dev.restbench.runner.analysis;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Each series' own run-to-run noise, from the history: the robust standard deviation (1.4826 x MAD) of the
 * medians of the most recent comparable runs, in % of their median. Within-run repetitions share one machine
 * state; this catches the drift between runs that they cannot see.
 */
public final class HistoricalNoise {

    /** How many recent comparable runs describe a series' noise. */
    public static final int RECENT_RUNS = 10;

    private HistoricalNoise() {
    }

    /**
     * @param history runs oldest first; only those comparable with head (and not head itself) are used
     */
    public static Map<String, Double> forHead(List<RunRecord> history, RunRecord head) {
        List<RunRecord> comparable = new ArrayList<>();
        for (int i = history.size() - 1; i >= 0 && comparable.size() < RECENT_RUNS; i--) {
            RunRecord run = history.get(i);
            if (!run.runId().equals(head.runId()) && run.comparableWith(head)) {
                comparable.add(run);
            }
        }
        Map<String, List<Double>> medians = new LinkedHashMap<>();
        for (RunRecord run : comparable) {
            for (RunRecord.Point point : run.points()) {
                if (point.ok() && point.values().length > 0) {
                    medians.computeIfAbsent(point.seriesKey(), k -> new ArrayList<>())
                            .add(Stats.median(point.values()));
                }
            }
        }
        Map<String, Double> noise = new HashMap<>();
        medians.forEach((series, values) -> {
            Double pct = VerdictRule.historicalNoisePct(Stats.toArray(values));
            if (pct != null) {
                noise.put(series, pct);
            }
        });
        return noise;
    }
}
