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
    void readsTheAllocationFaultApartFromTheCpuFault() {
        FaultInjection fault = FaultInjection.from(Map.of(FaultInjection.ALLOC_ENV, "10"));
        assertThat(fault.enabled()).isTrue();
        assertThat(fault.percent()).isZero();
        assertThat(fault.allocPercent()).isEqualTo(10);
        assertThatThrownBy(() -> FaultInjection.from(Map.of(FaultInjection.ALLOC_ENV, "-3")))
                .hasMessageContaining(FaultInjection.ALLOC_ENV);
    }

    @Test
    void allocatesTheRequestedShareOfWhatTheRequestAllocated() {
        var allocation = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        FaultInjection fault = new FaultInjection(0, 50);
        long begin = fault.begin();
        long start = allocation.getCurrentThreadAllocatedBytes();
        byte[][] request = new byte[20][];
        for (int i = 0; i < request.length; i++) {
            request[i] = new byte[10_000]; // the "request" allocates ~200 KB
        }
        long requestBytes = allocation.getCurrentThreadAllocatedBytes() - start;
        fault.end(begin);
        long faultBytes = allocation.getCurrentThreadAllocatedBytes() - start - requestBytes;
        // 50 % of what the request allocated, give or take the counter's own bookkeeping.
        assertThat((double) faultBytes).isCloseTo(requestBytes * 0.5, org.assertj.core.data.Percentage.withPercentage(10));
        assertThat(request[19]).hasSize(10_000);
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
