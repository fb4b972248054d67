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
    void failsTheStartsItDrawsAndNoOthers() {
        Map<String, String> env = Map.of(FaultInjection.START_FAIL_ENV, "20");
        assertThatThrownBy(() -> FaultInjection.from(env, 19.9))
                .isInstanceOf(FaultInjection.InjectedStartFailure.class)
                .hasMessageContaining("FAULT_START_FAIL_PERCENT=20.0");
        assertThat(FaultInjection.from(env, 20).enabled()).isFalse();
        assertThat(FaultInjection.from(Map.of(), 0).enabled()).isFalse();
        assertThatThrownBy(() -> FaultInjection.from(Map.of(FaultInjection.START_FAIL_ENV, "100"), 50))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("below 100");
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

    /** A 50 % fault on a process known to spend 4 ms and 400 KB per request, around a request that costs ~nothing. */
    @Test
    void sizesTheFaultsOnTheProcesssCostPerRequestOnceItIsKnown() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ProcessCostPerRequestTest.FakeProcess process = new ProcessCostPerRequestTest.FakeProcess();
        process.serve(100, 4_000_000, 400_000, 0, 0);
        FaultInjection fault = new FaultInjection(50, 50, process.cost);

        long cpuBefore = threads.getCurrentThreadCpuTime();
        long bytesBefore = threads.getCurrentThreadAllocatedBytes();
        fault.end(fault.begin());
        long cpu = threads.getCurrentThreadCpuTime() - cpuBefore;
        long bytes = threads.getCurrentThreadAllocatedBytes() - bytesBefore;

        // Sized on the request's own thread, the faults would have added next to nothing.
        assertThat(cpu).isGreaterThanOrEqualTo(2_000_000L);
        assertThat((double) bytes).isCloseTo(200_000, org.assertj.core.data.Percentage.withPercentage(10));
    }

    @Test
    void countsEveryRequestItSizedAFaultFor() {
        ProcessCostPerRequestTest.FakeProcess process = new ProcessCostPerRequestTest.FakeProcess();
        FaultInjection fault = new FaultInjection(10, 0, process.cost);
        for (int i = 0; i < 30; i++) {
            process.cpu.addAndGet(1_000_000);
            fault.end(fault.begin());
        }
        process.clock.addAndGet(ProcessCostPerRequest.INTERVAL_NANOS);
        fault.end(fault.begin());
        // 30 ms over 31 requests, less what the faults burned (not counted in the fake process's CPU): at most ~1 ms.
        assertThat(process.cost.cpuNanosPerRequest()).isBetween(0.0, 30_000_000 / 31.0);
    }
}
