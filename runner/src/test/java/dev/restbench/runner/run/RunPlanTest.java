package dev.restbench.runner.run;

import dev.restbench.runner.manifest.Manifest;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RunPlanTest {
    private static Manifest.Variant variant(String name) {
        return new Manifest.Variant(name, null, name + ".jar", null, 0, null, null, "plain", null, null, null);
    }

    private static Manifest.Scenario scenario(String name, String... regimes) {
        Map<String, Manifest.Regime> map = new java.util.LinkedHashMap<>();
        for (String regime : regimes) {
            map.put(regime, new Manifest.Regime(null, Map.of("rate", 10.0)));
        }
        return new Manifest.Scenario(name, null, "x.Sim", map);
    }

    @Test
    void variantOrderAlternatesFromOneBlockToTheNext() {
        RunPlan plan = RunPlan.of(List.of(variant("a"), variant("b"), variant("c")),
                List.of(scenario("s1", "capacity", "latency"), scenario("s2", "latency")),
                List.of("capacity", "latency"), 2);
        assertThat(plan.steps()).extracting(s -> s.repetition() + ":" + s.scenario().name() + ":" + s.variant().name())
                .containsExactly(
                        "0:s1:a", "0:s1:b", "0:s1:c",
                        "0:s2:c", "0:s2:b", "0:s2:a",
                        "1:s1:a", "1:s1:b", "1:s1:c",
                        "1:s2:c", "1:s2:b", "1:s2:a");
        assertThat(plan.steps().get(3).regimes()).containsExactly("latency");
        assertThat(plan.steps().get(0).regimes()).containsExactly("capacity", "latency");
    }

    @Test
    void eachVariantGoesFirstEquallyOftenOverAnEvenNumberOfBlocks() {
        RunPlan plan = RunPlan.of(List.of(variant("a"), variant("b")), List.of(scenario("s", "latency")),
                List.of("latency"), 4);
        assertThat(plan.steps()).extracting(s -> s.variant().name())
                .containsExactly("a", "b", "b", "a", "a", "b", "b", "a");
    }
}
