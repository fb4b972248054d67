package dev.restbench.runner.run;

import dev.restbench.runner.stats.Summary;
import dev.restbench.manifest.Manifest;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything measured in a run, in manifest order: per cell (variant × scenario × regime) its outcome in every trial
 * (a start of the variant) with that trial's windows; per variant the startup values of every start. A cell's figure
 * per metric is summarised over its trials: each trial contributes the mean of its windows (docs/method.md).
 */
final class RunResults {

    record CellKey(String variant, String scenario, String regime) {
        String name() {
            return variant + "-" + scenario + "-" + regime;
        }
    }

    /** A cell's outcome in one trial: which start ({@code trial}, counted per variant) in which round. */
    record TrialResult(int trial, int round, CellSession.Outcome outcome) {

        /** This start's value of one metric over its windows ({@link Summary#center}); null when a window lacks it. */
        Double value(String metric) {
            double[] windows = windows(metric);
            return windows == null || windows.length == 0 ? null : Summary.center(windows);
        }

        double[] windows(String metric) {
            double[] values = new double[outcome.windows().size()];
            for (int k = 0; k < values.length; k++) {
                Double value = outcome.windows().get(k).metrics().get(metric);
                if (value == null || !Double.isFinite(value)) {
                    return null;
                }
                values[k] = value;
            }
            return values;
        }
    }

    /**
     * A cell: ok with a summary per metric over its trials' values, or failed with a reason and no numbers, or not
     * measured (none of its starts was begun: the runtime is not on this machine, or the run's budget ran out), with
     * the reason and no numbers.
     * {@code values} holds each trial's value (the between-start samples), {@code windows} each trial's window values.
     * {@code lacking} names each metric some measured window has and another lacks, with the first window without it:
     * the cell leaves it out (values over different starts would mislead), and says so rather than drop it unseen.
     */
    record CellSummary(CellKey key, boolean ok, boolean notMeasured, String reason, List<TrialResult> trials,
                       Map<String, Summary> metrics, Map<String, List<Double>> values,
                       Map<String, double[][]> windows, Map<String, Lacking> lacking) {

        /** run.json's status of the cell: "ok", "failed" or "not-measured". */
        String status() {
            return ok ? OK : notMeasured ? NOT_MEASURED : FAILED;
        }

        /** Failed: begun and not measured (a cell none of whose starts was begun is not measured, not failed). */
        boolean failed() {
            return !ok && !notMeasured;
        }

        /**
         * Every measured trial settled before its windows and kept its compilers quiet in them (CellSession); a
         * failed start, recorded per start, has no windows to be steady in.
         */
        boolean steady() {
            return ok && measured().allMatch(t -> t.outcome().steady());
        }

        /** The measured trials' bottleneck when they agree, "mixed" when they do not. */
        String bottleneck() {
            List<String> all = measured().map(t -> t.outcome().bottleneck()).distinct().toList();
            return all.size() == 1 ? all.get(0) : all.isEmpty() ? "unknown" : "mixed";
        }

        /** The trials whose figures the cell holds (all of them, unless failed starts are recorded per start). */
        java.util.stream.Stream<TrialResult> measured() {
            return trials.stream().filter(t -> t.outcome().ok());
        }
    }

    private final Map<CellKey, List<TrialResult>> cells = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Double>>> startup = new LinkedHashMap<>();
    private final Map<String, Map<String, List<Integer>>> startupRounds = new LinkedHashMap<>();
    private final Map<String, Integer> startsPerVariant = new LinkedHashMap<>();
    private final RunOptions.FailedStarts failedStarts;

    RunResults(RunSelection selection) {
        this(selection, RunOptions.FailedStarts.FAIL_THE_CELL);
    }

    RunResults(RunSelection selection, RunOptions.FailedStarts failedStarts) {
        this.failedStarts = failedStarts;
        for (Manifest.Variant variant : selection.variants()) {
            startup.put(variant.name(), new LinkedHashMap<>());
            startsPerVariant.put(variant.name(), 0);
            for (RunPlan.Cell cell : selection.plan().trials().get(0).cells()) {
                cells.put(new CellKey(variant.name(), cell.scenario().name(), cell.regime()), new ArrayList<>());
            }
        }
    }

    /** Counts a start of the variant (whether or not its cells succeed); returns its trial index. */
    synchronized int startTrial(String variant) {
        return startsPerVariant.merge(variant, 1, Integer::sum) - 1;
    }

    synchronized void add(CellKey key, TrialResult result) {
        cells.get(key).add(result);
    }

    /** A start's startup metrics, with the round it ran in (a start that never got ready has none). */
    synchronized void addStartup(String variant, int round, Map<String, Double> metrics) {
        Map<String, List<Double>> values = startup.get(variant);
        Map<String, List<Integer>> rounds = startupRounds.computeIfAbsent(variant, k -> new LinkedHashMap<>());
        metrics.forEach((id, v) -> {
            values.computeIfAbsent(id, k -> new ArrayList<>()).add(v);
            rounds.computeIfAbsent(id, k -> new ArrayList<>()).add(round);
        });
    }

    /** Per variant and startup metric, the round of each value (what an A/B pairs them by). */
    synchronized Map<String, Map<String, List<Integer>>> startupRounds() {
        return startupRounds;
    }

    synchronized List<CellSummary> cells() {
        List<CellSummary> out = new ArrayList<>();
        cells.forEach((key, trials) -> out.add(summarize(key, trials, startsPerVariant.get(key.variant()),
                failedStarts)));
        return out;
    }

    synchronized Map<String, Map<String, Summary>> startup() {
        Map<String, Map<String, Summary>> out = new LinkedHashMap<>();
        startup.forEach((variant, metrics) -> {
            Map<String, Summary> summaries = new LinkedHashMap<>();
            metrics.forEach((id, values) -> summaries.put(id, Summary.of(values)));
            out.put(variant, summaries);
        });
        return out;
    }

    /**
     * Per measured start, the share of its service's cores that other work took (busy minus the service's own CPU),
     * keyed "variant/scenario/regime start n"; starts without /proc readings are left out.
     */
    synchronized Map<String, Double> othersOnServiceCores() {
        Map<String, Double> out = new LinkedHashMap<>();
        cells.forEach((key, trials) -> {
            for (TrialResult trial : trials) {
                WindowMetrics.Utilisation u = trial.outcome().utilisation();
                if (trial.outcome().ok() && u != null && u.service() != null && u.serviceCores() != null) {
                    out.put(key.variant() + "/" + key.scenario() + "/" + key.regime() + " start " + (trial.trial() + 1),
                            Math.max(0, u.serviceCores() - u.service()));
                }
            }
        });
        return out;
    }

    synchronized Map<String, Map<String, List<Double>>> startupValues() {
        return startup;
    }

    static CellSummary summarize(CellKey key, List<TrialResult> trials, int starts, RunOptions.FailedStarts policy) {
        List<TrialResult> failed = trials.stream().filter(t -> t.outcome().failed()).toList();
        List<TrialResult> skipped = trials.stream().filter(t -> t.outcome().notMeasured()).toList();
        List<TrialResult> measured = trials.stream().filter(t -> t.outcome().ok()).toList();
        if (!trials.isEmpty() && skipped.size() == trials.size() && trials.size() == starts) {
            // Never begun: the machine lacked the runtime, or the budget ran out. Nothing failed, nothing measured.
            return new CellSummary(key, false, true, skipped.get(0).outcome().reason(), trials, Map.of(), Map.of(),
                    Map.of(), Map.of());
        }
        if (!failed.isEmpty() && (policy == RunOptions.FailedStarts.FAIL_THE_CELL || measured.isEmpty())) {
            TrialResult first = failed.get(0);
            return new CellSummary(key, false, false, "start " + (first.trial() + 1) + ": "
                    + first.outcome().reason(), trials, Map.of(), Map.of(), Map.of(), Map.of());
        }
        if (trials.isEmpty() || trials.size() < starts) {
            return new CellSummary(key, false, false, "measured in " + trials.size() + " of " + starts
                    + " starts (interrupted?)", trials, Map.of(), Map.of(), Map.of(), Map.of());
        }
        // Recorded per start: the figures are the measured starts', and the cell says which failed (the trials too),
        // and which were never begun.
        List<String> notes = new ArrayList<>();
        if (!failed.isEmpty()) {
            notes.add(failed.size() + " of " + trials.size() + " starts failed, first start "
                    + (failed.get(0).trial() + 1) + ": " + failed.get(0).outcome().reason());
        }
        if (!skipped.isEmpty()) {
            notes.add(skipped.size() + " of " + trials.size() + " starts not measured, first start "
                    + (skipped.get(0).trial() + 1) + ": " + skipped.get(0).outcome().reason());
        }
        String reason = notes.isEmpty() ? null : String.join("; ", notes);
        // A metric is summarised only when every window of every trial has it: values over different n would mislead.
        // One that only some windows have (a meter that failed to read, a window with too little CPU to count) is
        // named in lacking, with the first window without it; one that no window has is a meter the runtime lacks.
        Map<String, Summary> metrics = new LinkedHashMap<>();
        Map<String, List<Double>> values = new LinkedHashMap<>();
        Map<String, double[][]> windows = new LinkedHashMap<>();
        Map<String, Lacking> lacking = new java.util.TreeMap<>();
        java.util.Set<String> ids = new java.util.LinkedHashSet<>();
        measured.forEach(t -> t.outcome().windows().forEach(w -> ids.addAll(w.metrics().keySet())));
        for (String id : ids) {
            List<Double> perStart = measured.stream().map(t -> t.value(id)).toList();
            if (perStart.stream().allMatch(v -> v != null)) {
                metrics.put(id, Summary.of(perStart));
                values.put(id, perStart);
                windows.put(id, measured.stream().map(t -> t.windows(id)).toArray(double[][]::new));
            } else {
                lacking.put(id, firstWithout(measured, id));
            }
        }
        // Time to steady, per start (issue 23): what each start's warmup took before its windows, so the AOT-cache
        // and JDK axes show what they trade. A start's one figure, no windows: its n is the starts.
        List<Double> warmups = measured.stream().map(t -> t.outcome().warmupSeconds()).toList();
        metrics.put(WARMUP, Summary.of(warmups));
        values.put(WARMUP, warmups);
        return new CellSummary(key, true, false, reason, trials, metrics, values, windows, lacking);
    }

    /**
     * Where a cell's metric was first missing: {@code where} as a reader is told ("start 5, window 3 of 3"), and the
     * round of that start, so that a reader of some rounds only (a drill trial) can tell whether it lies among them.
     */
    record Lacking(String where, int round) {
    }

    /** The first measured window without a finite value of the metric (some measured window lacks it). */
    private static Lacking firstWithout(List<TrialResult> measured, String metric) {
        for (TrialResult trial : measured) {
            List<CellSession.Window> windows = trial.outcome().windows();
            for (int k = 0; k < windows.size(); k++) {
                Double value = windows.get(k).metrics().get(metric);
                if (value == null || !Double.isFinite(value)) {
                    return new Lacking("start " + (trial.trial() + 1) + ", window " + (k + 1) + " of " + windows.size(),
                            trial.round());
                }
            }
            if (windows.isEmpty()) {
                return new Lacking("start " + (trial.trial() + 1) + ", which has no windows", trial.round());
            }
        }
        throw new IllegalStateException(metric + " is lacking, yet every measured window has it");
    }

    /** The cell metric of each start's warmup length, s. */
    static final String WARMUP = "warmup_s";

    /** run.json's statuses of a cell and of a start (run.schema.json). */
    static final String OK = "ok";
    static final String FAILED = "failed";
    static final String NOT_MEASURED = "not-measured";
}
