package dev.restbench.support;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.lang.management.ManagementFactory;

/**
 * Exact bytes allocated on the heap by all threads since the JVM started, as the counter
 * {@code jvm.allocation.bytes}.
 *
 * <p>Why not {@code jvm.gc.memory.allocated}: that counter only moves when a GC happens, so its delta over a
 * measured window depends on where the collections fell. The runner divides this counter's delta over exactly the
 * measured window by the number of requests, which makes "bytes allocated per request" one of the low-noise
 * signals the regression detector relies on.
 */
public final class AllocationMetrics implements MeterBinder {

    public static final String METER_NAME = "jvm.allocation.bytes";

    private final com.sun.management.ThreadMXBean threads;

    public AllocationMetrics() {
        this.threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        if (threads.isThreadAllocatedMemorySupported() && !threads.isThreadAllocatedMemoryEnabled()) {
            threads.setThreadAllocatedMemoryEnabled(true);
        }
    }

    /** Total bytes allocated by all threads, live and terminated; -1 when the JVM cannot tell. */
    public long totalAllocatedBytes() {
        return threads.isThreadAllocatedMemorySupported() ? threads.getTotalThreadAllocatedBytes() : -1;
    }

    private static double allocatedBytes(com.sun.management.ThreadMXBean threads) {
        return threads.isThreadAllocatedMemorySupported() ? Math.max(0, threads.getTotalThreadAllocatedBytes()) : 0;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        // Micrometer holds a function counter's state object weakly: a throwaway AllocationMetrics would be
        // collected and the counter would read 0 from then on. The platform ThreadMXBean is held by the JVM itself.
        FunctionCounter.builder(METER_NAME, threads, AllocationMetrics::allocatedBytes)
                .description("Bytes allocated on the heap by all threads since the JVM started (exact, not GC-sampled)")
                .baseUnit(BaseUnits.BYTES)
                .register(registry);
    }
}
