package dev.restbench.support;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class AllocationMetricsTest {

    @Test
    void keepsCountingWhenTheBinderItselfIsNotReferenced() throws InterruptedException {
        var registry = new SimpleMeterRegistry();
        new AllocationMetrics().bindTo(registry); // no reference kept, as a variant's startup code would do
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(20);
        }
        assertThat(registry.get(AllocationMetrics.METER_NAME).functionCounter().count()).isPositive();
    }

    @Test
    void countsBytesAllocatedBetweenTwoReadings() {
        var registry = new SimpleMeterRegistry();
        new AllocationMetrics().bindTo(registry);
        FunctionCounter counter = registry.get(AllocationMetrics.METER_NAME).functionCounter();

        double before = counter.count();
        byte[][] garbage = new byte[64][];
        for (int i = 0; i < garbage.length; i++) {
            garbage[i] = new byte[16 * 1024];
        }
        double after = counter.count();

        assertThat(garbage[63]).hasSize(16 * 1024);
        assertThat(after - before).isGreaterThanOrEqualTo(64 * 16 * 1024);
    }
}
