package dev.restbench.runner.run;

import dev.restbench.runner.manifest.Manifest;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of work: for each repetition, for each scenario, every variant once; the variant order alternates
 * forward / reversed from one block to the next (A B C, C B A, A B C …) so that drift over the run (thermal,
 * page cache, a neighbour's load) does not always favour the same variant. Each step starts the variant on a
 * fresh database, warms it up and measures every regime of the scenario.
 */
public record RunPlan(List<Step> steps) {

    /** One service start: variant × scenario × repetition, measuring {@code regimes} in order. */
    public record Step(Manifest.Variant variant, Manifest.Scenario scenario, List<String> regimes, int repetition) {
    }

    public static RunPlan of(List<Manifest.Variant> variants, List<Manifest.Scenario> scenarios,
                             List<String> regimes, int repetitions) {
        List<Step> steps = new ArrayList<>();
        int block = 0;
        for (int rep = 0; rep < repetitions; rep++) {
            for (Manifest.Scenario scenario : scenarios) {
                List<Manifest.Variant> order = new ArrayList<>(variants);
                if (block++ % 2 == 1) {
                    java.util.Collections.reverse(order);
                }
                List<String> scenarioRegimes = regimes.stream().filter(scenario.regimes()::containsKey).toList();
                for (Manifest.Variant variant : order) {
                    steps.add(new Step(variant, scenario, scenarioRegimes, rep));
                }
            }
        }
        return new RunPlan(List.copyOf(steps));
    }
}
