package dev.restbench.support;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FaultInjectionTest {

    @Test
    void isOffByDefault() {
        assertThat(FaultInjection.from(Map.of()).enabled()).isFalse();
        assertThat(FaultInjection.from(Map.of(FaultInjection.ENV, "0")).enabled()).isFalse();
    }

    @Test
    void readsThePercentage() {
        FaultInjection fault = FaultInjection.from(Map.of(FaultInjection.ENV, "7.5"));
        assertThat(fault.enabled()).isTrue();
        assertThat(fault.percent()).isEqualTo(7.5);
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> FaultInjection.from(Map.of(FaultInjection.ENV, "lots")))
                .hasMessageContaining(FaultInjection.ENV);
        assertThatThrownBy(() -> new FaultInjection(-1)).hasMessageContaining(FaultInjection.ENV);
    }

    @Test
    void burnsAtLeastTheRequestedCpuTime() {
        var threads = ManagementFactory.getThreadMXBean();
        FaultInjection fault = new FaultInjection(100);
        long before = threads.getCurrentThreadCpuTime();
        fault.burnCpu(20_000_000L);
        assertThat(threads.getCurrentThreadCpuTime() - before).isGreaterThanOrEqualTo(20_000_000L);
    }
}
