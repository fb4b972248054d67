package dev.restbench.support;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProcessCostPerRequestTest {

    /** A process whose counters and clock the test moves by hand. */
    static final class FakeProcess {
        final AtomicLong cpu = new AtomicLong(5_000_000_000L);
        final AtomicLong bytes = new AtomicLong(800_000_000L);
        final AtomicLong clock = new AtomicLong(42);
        final ProcessCostPerRequest cost = new ProcessCostPerRequest(cpu::get, bytes::get, clock::get);

        /** {@code n} requests over one interval, each costing the process {@code cpu} ns and {@code bytes} bytes. */
        void serve(int n, long cpuPerRequest, long bytesPerRequest, long faultCpu, long faultBytes) {
            for (int i = 0; i < n; i++) {
                cpu.addAndGet(cpuPerRequest + faultCpu);
                bytes.addAndGet(bytesPerRequest + faultBytes);
                if (i == n - 1) {
                    clock.addAndGet(ProcessCostPerRequest.INTERVAL_NANOS);
                }
                cost.requestEnded(faultCpu, faultBytes);
            }
        }
    }

    @Test
    void knowsNothingBeforeTheFirstInterval() {
        FakeProcess process = new FakeProcess();
        process.cost.requestEnded(0, 0);
        assertThat(process.cost.cpuNanosPerRequest()).isNaN();
        assertThat(process.cost.bytesPerRequest()).isNaN();
    }

    @Test
    void dividesTheProcessCountersByTheRequestsOfTheInterval() {
        FakeProcess process = new FakeProcess();
        process.serve(100, 80_000, 50_000, 0, 0);
        assertThat(process.cost.cpuNanosPerRequest()).isEqualTo(80_000);
        assertThat(process.cost.bytesPerRequest()).isEqualTo(50_000);
        // The next interval, a cheaper request: the estimate follows.
        process.serve(200, 60_000, 40_000, 0, 0);
        assertThat(process.cost.cpuNanosPerRequest()).isEqualTo(60_000);
        assertThat(process.cost.bytesPerRequest()).isEqualTo(40_000);
    }

    @Test
    void takesWhatTheFaultsAddedOutAgain() {
        FakeProcess process = new FakeProcess();
        process.serve(100, 80_000, 50_000, 8_000, 5_000);
        assertThat(process.cost.cpuNanosPerRequest()).isEqualTo(80_000);
        assertThat(process.cost.bytesPerRequest()).isEqualTo(50_000);
    }

    @Test
    void keepsTheEstimateThroughAnIntervalWithTooFewRequests() {
        FakeProcess process = new FakeProcess();
        process.serve(100, 80_000, 50_000, 0, 0);
        process.serve((int) ProcessCostPerRequest.MIN_REQUESTS - 1, 900_000, 900_000, 0, 0);
        assertThat(process.cost.cpuNanosPerRequest()).isEqualTo(80_000);
        // ...and does not carry that interval's cost into the next one.
        process.serve(100, 70_000, 30_000, 0, 0);
        assertThat(process.cost.cpuNanosPerRequest()).isEqualTo(70_000);
    }

    @Test
    void leavesCpuUnknownWhereTheProcessCannotCountIt() {
        AtomicLong bytes = new AtomicLong();
        AtomicLong clock = new AtomicLong();
        ProcessCostPerRequest cost = new ProcessCostPerRequest(() -> -1, bytes::get, clock::get);
        for (int i = 0; i < 50; i++) {
            bytes.addAndGet(1_000);
            cost.requestEnded(0, 0);
        }
        clock.addAndGet(ProcessCostPerRequest.INTERVAL_NANOS);
        cost.requestEnded(0, 0);
        assertThat(cost.cpuNanosPerRequest()).isNaN();
        assertThat(cost.bytesPerRequest()).isEqualTo(50_000 / 51.0);
    }

    @Test
    void readsThisJvmsCounters() {
        ProcessCostPerRequest cost = ProcessCostPerRequest.ofThisProcess();
        long until = System.nanoTime() + ProcessCostPerRequest.INTERVAL_NANOS + 50_000_000L;
        long sink = 0;
        while (System.nanoTime() < until) {
            for (int i = 0; i < 1_000; i++) {
                sink += new byte[64].length; // allocates and burns CPU
            }
            cost.requestEnded(0, 0);
        }
        assertThat(sink).isPositive();
        assertThat(cost.cpuNanosPerRequest()).isPositive();
        assertThat(cost.bytesPerRequest()).isPositive();
    }
}
