package dev.restbench.runner.run;

import dev.restbench.runner.analysis.Stats;
import dev.restbench.runner.manifest.Manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything measured in a run, in manifest order: per cell (variant × scenario × regime) the repetitions, per
 * variant the startup values of every start. Medians and spreads come from {@link Stats} (the analysis code's
 * single implementation).
 */
final class RunResults {

    record CellKey(String variant, String scenario, String regime) {
        String name() {
            return variant + "-" + scenario + "-" + regime;
        }
    }

    /** One measured window; {@code metrics} is empty unless {@code ok}. */
    record Repetition(int index, boolean ok, String reason, Map<String, Double> metrics, String report) {
    }

    /** A cell's verdict: ok with a summary per metric, or failed with a reason and no numbers. */
    record CellSummary(CellKey key, boolean ok, String reason, List<Repetition> repetitions,
                       Map<String, Stats.Summary> metrics, Map<String, List<Double>> values) {
    }

    private final int repetitions;
    private final Map<CellKey, List<Repetition>> cells = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Double>>> startup = new LinkedHashMap<>();

    RunResults(RunSelection selection) {
        this.repetitions = selection.profile().repetitions();
        for (Manifest.Variant variant : selection.variants()) {
            startup.put(variant.name(), new LinkedHashMap<>());
            for (Manifest.Scenario scenario : selection.scenarios()) {
                for (String regime : selection.regimes()) {
                    if (scenario.regimes().containsKey(regime)) {
                        cells.put(new CellKey(variant.name(), scenario.name(), regime), new ArrayList<>());
                    }
                }
            }
        }
    }

    synchronized void add(CellKey key, Repetition repetition) {
        cells.get(key).add(repetition);
    }

    synchronized void addStartup(String variant, Map<String, Double> metrics) {
        Map<String, List<Double>> values = startup.get(variant);
        metrics.forEach((id, v) -> values.computeIfAbsent(id, k -> new ArrayList<>()).add(v));
    }

    synchronized List<CellSummary> cells() {
        List<CellSummary> out = new ArrayList<>();
        cells.forEach((key, reps) -> out.add(summarize(key, reps)));
        return out;
    }

    synchronized Map<String, Map<String, Stats.Summary>> startup() {
        Map<String, Map<String, Stats.Summary>> out = new LinkedHashMap<>();
        startup.forEach((variant, metrics) -> {
            Map<String, Stats.Summary> summaries = new LinkedHashMap<>();
            metrics.forEach((id, values) -> summaries.put(id, Stats.summarize(Stats.toArray(values))));
            out.put(variant, summaries);
        });
        return out;
    }

    synchronized Map<String, Map<String, List<Double>>> startupValues() {
        return startup;
    }

    boolean allOk() {
        return cells().stream().allMatch(CellSummary::ok);
    }

    private CellSummary summarize(CellKey key, List<Repetition> reps) {
        for (Repetition rep : reps) {
            if (!rep.ok()) {
                return new CellSummary(key, false, "r" + rep.index() + ": " + rep.reason(), reps, Map.of(), Map.of());
            }
        }
        if (reps.size() < repetitions) {
            return new CellSummary(key, false, "only " + reps.size() + " of " + repetitions
                    + " repetitions ran (interrupted?)", reps, Map.of(), Map.of());
        }
        // A metric is summarised only when every repetition has it: medians over different n would mislead.
        Map<String, Stats.Summary> metrics = new LinkedHashMap<>();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        for (String id : reps.get(0).metrics().keySet()) {
            List<Double> series = reps.stream().map(r -> r.metrics().get(id)).toList();
            if (series.stream().allMatch(v -> v != null && Double.isFinite(v))) {
                metrics.put(id, Stats.summarize(Stats.toArray(series)));
                values.put(id, series);
            }
        }
        return new CellSummary(key, true, null, reps, metrics, values);
    }
}
