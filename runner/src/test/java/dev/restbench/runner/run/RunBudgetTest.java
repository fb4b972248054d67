package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.runner.Bench;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A run's wall-time bounds, and `./bench run --budget-minutes` refusing a plan that cannot fit a CI job's time. */
class RunBudgetTest {

    private static Manifest.Variant variant(String name) {
        return new Manifest.Variant(name, null, null, "services/" + name, null, name + ".jar", List.of("{java}"),
                new Manifest.Runtime("jdk", 17), 0, "/health", "/metrics", "plain", List.of(), null, Map.of(), Map.of(),
                false);
    }

    private static Manifest.Scenario scenario(String name) {
        Map<String, Manifest.Regime> regimes = new LinkedHashMap<>();
        regimes.put("capacity", new Manifest.Regime(null, Map.of("users", 8.0)));
        return new Manifest.Scenario(name, null, "x.Sim", regimes);
    }

    /** Two variants × three starts, two capacity cells each: 3 × 5 s windows, warmups 20–120 s after 4 × (10 + 10) s. */
    private static RunSelection selection() {
        var warmup = new Manifest.Warmup(20, 120, 10, 30, 5, new Manifest.Cycles(4, 10, 10));
        var profile = new Manifest.Profile("test", null, Map.of(), null, List.of("capacity"), 3, 3, 5, warmup, null,
                "default");
        var variants = List.of(variant("a"), variant("b"));
        var scenarios = List.of(scenario("s1"), scenario("s2"));
        return new RunSelection("test", profile, null, variants, scenarios, List.of("capacity"),
                RunPlan.of(variants, scenarios, List.of("capacity"), 3, 1));
    }

    @Test
    void theLowerBoundCountsTheCyclesOncePerStartAndEachCellsMinimumWarmupAndWindows() {
        RunSelection selection = selection();
        // 6 starts × (80 s of cycles + 2 cells × (20 s + 15 s)).
        assertThat(selection.minimumSeconds(Set.of())).isEqualTo(6 * 150);
        // A variant without its runtime fails at once: its starts take no time.
        assertThat(selection.minimumSeconds(Set.of("b"))).isEqualTo(3 * 150);
        // Per start 10 s start-up + 80 s cycles + 2 cells × (6 s Gatling + 2 × (120 s cap + 15 s windows)): a
        // re-measure resumes the warmup, which may run to its cap again.
        assertThat(selection.worstSeconds(selection.plan().trials().get(0))).isEqualTo(642.0);
        assertThat(selection.atCapSeconds(Set.of())).isEqualTo(6 * 642);
        assertThat(selection.atCapSeconds(Set.of("a"))).isEqualTo(3 * 642);
    }

    @Test
    void theEtaCountsTheCyclesOncePerStartAsTheyRun() {
        RunSelection selection = selection();
        // 10 s start + 80 s cycles (first cell only) + 2 × (70 s warmup + 15 s windows + 6 s); counting the cycles in
        // every cell gave 352.
        assertThat(selection.expectedSeconds(selection.plan().trials().get(0))).isEqualTo(272.0);
    }

    @Test
    void aPlanWhoseLowerBoundExceedsTheBudgetIsRefusedOneThatMightNotFitIsWarned() {
        RunSelection selection = selection();
        Bench.Result refused = fits(selection, Set.of(), 14);
        assertThat(refused.exit()).isZero();
        assertThat(refused.err()).contains("needs at least 15 min").contains("the budget is 14 min")
                .contains("nothing measured").contains("shard");
        Bench.Result tight = fits(selection, Set.of(), 20);
        assertThat(tight.exit()).isOne();
        assertThat(tight.out()).contains("warning").contains("up to about 1 h 4 min")
                .contains("recorded as not measured");
        Bench.Result ample = fits(selection, Set.of(), 65);
        assertThat(ample.exit()).isOne();
        assertThat(ample.out() + ample.err()).isEmpty();
        // The same plan without the variant whose runtime is missing fits the 14 minutes.
        assertThat(fits(selection, Set.of("b"), 14).exit()).isOne();
    }

    @Test
    void aStartBeginsOnlyWhenItsLongestCanEndBeforeTheDeadlineWithAMinuteToSpare() {
        RunSelection selection = selection();
        RunPlan.Trial trial = selection.plan().trials().get(0);
        long now = 1_000_000_000_000L;
        long needed = (long) ((642 + BenchmarkRun.CLOSING_S) * 1e9);
        assertThat(BenchmarkRun.canStart(selection, trial, now, now + needed)).isTrue();
        assertThat(BenchmarkRun.canStart(selection, trial, now, now + needed - 1_000_000_000L)).isFalse();
        assertThat(BenchmarkRun.canStart(selection, trial, now + 1, now)).isFalse();
    }

    @Test
    void theRealFullProfileCannotFitOneJobAndIsRefusedBeforeAnythingIsBuilt() {
        String root = BrokenVariantTest.ROOT.toString();
        // --missing-runtimes record: a machine without some variant's runtime still reaches the budget's check.
        Bench.Result full = Bench.run("run", "--root", root, "--dry-run", "--profile", "full", "--budget-minutes",
                "195", "--missing-runtimes", "record");
        assertThat(full.exit()).isEqualTo(2);
        assertThat(full.err()).contains("bench run: profile full over").contains("needs at least")
                .contains("the budget is 3 h 15 min");
        Bench.Result main = Bench.run("run", "--root", root, "--dry-run", "--profile", "main", "--budget-minutes",
                "195", "--missing-runtimes", "record");
        assertThat(main.exit()).as(main.err()).isZero();
        assertThat(main.out()).contains("wall time: at least");
        assertThat(Bench.run("run", "--root", root, "--dry-run", "--budget-minutes", "0").err())
                .contains("--budget-minutes").contains("must be a positive number");
    }

    /** fitsBudget's answer as the exit (1 true, 0 false), and what it printed. */
    private static Bench.Result fits(RunSelection selection, Set<String> skipped, double minutes) {
        return Bench.capture(() -> RunCommand.fitsBudget(selection, skipped, minutes) ? 1 : 0);
    }
}
