package dev.restbench.support;

import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * What the whole service process spends per request, CPU time and allocated bytes, re-measured every second from the
 * process's own counters, with what the drill's faults added taken out again.
 *
 * <p>Why the process and not the request's thread: the runner's CPU and allocation per request are the process's
 * deltas over a window divided by its requests, so they also hold the selector and event-loop threads, the
 * database driver's threads, GC and the metrics scrape. A fault sized on the request thread alone injected less than
 * its name into that figure (jersey point-read: {@code cpu10} moved CPU per request by a median −2 %, {@code alloc10}
 * allocation by +7 %). Sized on this estimate, "10 %" is 10 % of what the runner measures.
 *
 * <p>The faults' own CPU and bytes are subtracted before dividing, so the estimate does not feed on itself.
 */
final class ProcessCostPerRequest {

    /** How often the estimate is renewed; the runner's windows are 5 s, so each spans several estimates. */
    static final long INTERVAL_NANOS = 1_000_000_000L;
    /** Fewer requests than this in an interval leave the estimate as it was (one slow request is no average). */
    static final long MIN_REQUESTS = 20;

    private final LongSupplier processCpuNanos;
    private final LongSupplier processAllocatedBytes;
    private final LongSupplier clock;

    private final AtomicLong requests = new AtomicLong();
    private final LongAdder addedCpuNanos = new LongAdder();
    private final LongAdder addedBytes = new LongAdder();
    private final AtomicLong nextUpdate;

    /** The counters at the start of the current interval; written only by the thread that won the update. */
    private long lastRequests;
    private long lastCpu;
    private long lastAddedCpu;
    private long lastBytes;
    private long lastAddedBytes;

    private volatile double cpuNanosPerRequest = Double.NaN;
    private volatile double bytesPerRequest = Double.NaN;

    ProcessCostPerRequest(LongSupplier processCpuNanos, LongSupplier processAllocatedBytes, LongSupplier clock) {
        this.processCpuNanos = processCpuNanos;
        this.processAllocatedBytes = processAllocatedBytes;
        this.clock = clock;
        this.lastCpu = processCpuNanos.getAsLong();
        this.lastBytes = processAllocatedBytes.getAsLong();
        this.nextUpdate = new AtomicLong(clock.getAsLong() + INTERVAL_NANOS);
    }

    /** This JVM's counters: process CPU time (-1 where the platform bean has none) and all threads' allocated bytes. */
    static ProcessCostPerRequest ofThisProcess() {
        java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        LongSupplier cpu = os instanceof com.sun.management.OperatingSystemMXBean hotspot
                ? hotspot::getProcessCpuTime : () -> -1;
        AllocationMetrics allocation = new AllocationMetrics();
        return new ProcessCostPerRequest(cpu, allocation::totalAllocatedBytes, System::nanoTime);
    }

    /** The process's CPU nanoseconds per request over the last interval, faults excluded; NaN until known. */
    double cpuNanosPerRequest() {
        return cpuNanosPerRequest;
    }

    /** The process's allocated bytes per request over the last interval, faults excluded; NaN until known. */
    double bytesPerRequest() {
        return bytesPerRequest;
    }

    /** Counts one finished request and what the faults added to it; renews the estimate when an interval is over. */
    void requestEnded(long faultCpuNanos, long faultBytes) {
        requests.incrementAndGet();
        if (faultCpuNanos > 0) {
            addedCpuNanos.add(faultCpuNanos);
        }
        if (faultBytes > 0) {
            addedBytes.add(faultBytes);
        }
        long now = clock.getAsLong();
        long due = nextUpdate.get();
        if (now - due >= 0 && nextUpdate.compareAndSet(due, now + INTERVAL_NANOS)) {
            renew();
        }
    }

    /** Synchronized: the winner of an interval's update is not always the same thread, and renewals never overlap. */
    private synchronized void renew() {
        long requestsNow = requests.get();
        long cpuNow = processCpuNanos.getAsLong();
        long addedCpuNow = addedCpuNanos.sum();
        long bytesNow = processAllocatedBytes.getAsLong();
        long addedBytesNow = addedBytes.sum();
        long handled = requestsNow - lastRequests;
        if (handled >= MIN_REQUESTS) {
            if (cpuNow >= 0 && lastCpu >= 0) {
                cpuNanosPerRequest = Math.max(0, (cpuNow - lastCpu) - (addedCpuNow - lastAddedCpu)) / (double) handled;
            }
            if (bytesNow >= 0 && lastBytes >= 0) {
                bytesPerRequest = Math.max(0, (bytesNow - lastBytes) - (addedBytesNow - lastAddedBytes)) / (double) handled;
            }
        }
        lastRequests = requestsNow;
        lastCpu = cpuNow;
        lastAddedCpu = addedCpuNow;
        lastBytes = bytesNow;
        lastAddedBytes = addedBytesNow;
    }
}
