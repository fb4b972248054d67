package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The order of work, as randomized multiple interleaved trials (Abedi &amp; Brecht 2017): {@code trials} rounds; in
 * each round every variant is started once, in an order shuffled per round with a recorded seed, so neither drift of
 * the machine over the run (thermal, page cache, a neighbour's load) nor a fixed position favours a variant. One
 * start (a trial) runs every cell of the selection in a fixed order — scenarios as the profile lists them, each
 * scenario's regimes capacity then latency — so every variant meets the same sequence (docs/method.md, "Method").
 */
public record RunPlan(long seed, List<Trial> trials) {

    /** One cell of a trial: a scenario in one regime. */
    public record Cell(Manifest.Scenario scenario, String regime) {
    }

    /** One start of a variant: round {@code round}, measuring {@code cells} in order. */
    public record Trial(Manifest.Variant variant, int round, List<Cell> cells) {
    }

    public static RunPlan of(List<Manifest.Variant> variants, List<Manifest.Scenario> scenarios,
                             List<String> regimes, int rounds, long seed) {
        List<Cell> cells = new ArrayList<>();
        for (Manifest.Scenario scenario : scenarios) {
            for (String regime : regimes) {
                if (scenario.regimes().containsKey(regime)) {
                    cells.add(new Cell(scenario, regime));
                }
            }
        }
        // SplittableRandom mixes its seed; java.util.Random does not, and its first nextInt(2^k) stays the same
        // over thousands of consecutive seeds, so hand-picked seeds (0, 1, 2 or one date after another) all gave
        // the same first round.
        SplittableRandom random = new SplittableRandom(seed);
        List<Trial> trials = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            List<Manifest.Variant> order = new ArrayList<>(variants);
            shuffle(order, random);
            for (Manifest.Variant variant : order) {
                trials.add(new Trial(variant, round, List.copyOf(cells)));
            }
        }
        return new RunPlan(seed, List.copyOf(trials));
    }

    /** Fisher–Yates: every order equally likely. */
    private static <T> void shuffle(List<T> list, SplittableRandom random) {
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            T swapped = list.get(i);
            list.set(i, list.get(j));
            list.set(j, swapped);
        }
    }

    /** The trials of one round, in their order. */
    public List<Trial> round(int round) {
        return trials.stream().filter(t -> t.round() == round).toList();
    }

    public int rounds() {
        return trials.stream().mapToInt(Trial::round).max().orElse(-1) + 1;
    }
}
