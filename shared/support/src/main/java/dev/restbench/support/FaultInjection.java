package dev.restbench.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

/**
 * The regression drill's faults, off by default: extra CPU work and extra allocation per request, each sized as a
 * percentage of what the whole service process spends per request ({@code FAULT_CPU_PERCENT}: CPU time;
 * {@code FAULT_ALLOC_PERCENT}: allocated bytes), re-measured every second by {@link ProcessCostPerRequest}. Variants
 * register their request filter only when {@link #enabled()}, so a normal run carries no trace of them.
 *
 * <p>Sizing the fault relative to the request's cost (instead of a fixed amount) makes "10 %" mean the same
 * regression in every variant, whatever its baseline; sizing it on the process's cost, not the request thread's,
 * makes it 10 % of what the runner measures (the process's deltas per request). Until the first second's estimate
 * exists (or where the JVM cannot count process CPU), a fault is sized on the request thread's own cost instead.
 * The allocation fault allocates short-lived byte arrays (what a careless copy of a body would); zeroing them and the
 * collections the extra garbage brings cost CPU too (jersey point-read, +10 % allocation: +3…+6 % CPU per request),
 * so it is not a pure allocation regression, as a careless copy is not. The CPU
 * fault spins until the thread's CPU clock has moved far enough, so it overshoots by up to one clock read (about a
 * microsecond).
 */
public final class FaultInjection {

    public static final String ENV = "FAULT_CPU_PERCENT";
    public static final String ALLOC_ENV = "FAULT_ALLOC_PERCENT";
    /**
     * The share of starts that fail on purpose, before the service is ready (the drill's failure fault: what failed
     * starts do to an A/B verdict). Drawn once per process, when the variant reads its faults at startup.
     */
    public static final String START_FAIL_ENV = "FAULT_START_FAIL_PERCENT";

    /** What a start the failure fault drew throws: the variant's startup ends with it (an uncaught exception). */
    public static final class InjectedStartFailure extends IllegalStateException {
        InjectedStartFailure(double percent) {
            super(START_FAIL_ENV + "=" + percent + ": this start fails on purpose (the regression drill)");
        }
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** HotSpot's extension: bytes allocated by the current thread (exact, what jvm.allocation.bytes sums). */
    private static final com.sun.management.ThreadMXBean ALLOCATION =
            THREADS instanceof com.sun.management.ThreadMXBean hotspot ? hotspot : null;
    /** Arrays up to this size: large enough to be cheap per byte, small enough to stay in the young generation. */
    private static final int CHUNK = 64 * 1024;
    /** The allocated bytes at begin(), per thread (begin returns the CPU time; the signature predates the alloc fault). */
    private static final ThreadLocal<long[]> ALLOCATED_AT_BEGIN = ThreadLocal.withInitial(() -> new long[1]);

    private final double cpuPercent;
    private final double allocPercent;
    /** What the process spends per request; null when no fault is on. */
    private final ProcessCostPerRequest processCost;

    /** Keep the JIT from discarding the busy loop and the arrays. */
    private volatile long sink;
    private volatile byte[] allocationSink;

    public FaultInjection(double cpuPercent) {
        this(cpuPercent, 0);
    }

    public FaultInjection(double cpuPercent, double allocPercent) {
        this(cpuPercent, allocPercent,
                cpuPercent > 0 || allocPercent > 0 ? ProcessCostPerRequest.ofThisProcess() : null);
    }

    /** The faults sized on a given process-cost estimate (tests pass a fake process). */
    FaultInjection(double cpuPercent, double allocPercent, ProcessCostPerRequest processCost) {
        check(ENV, cpuPercent);
        check(ALLOC_ENV, allocPercent);
        if (allocPercent > 0 && ALLOCATION == null) {
            throw new IllegalArgumentException(ALLOC_ENV + " needs a JVM that counts allocated bytes per thread (HotSpot)");
        }
        this.cpuPercent = cpuPercent;
        this.allocPercent = allocPercent;
        this.processCost = processCost;
    }

    /** This process's draw for the start-failure fault: once per process, however often the faults are read. */
    private static final double START_DRAW = java.util.concurrent.ThreadLocalRandom.current().nextDouble(100);

    /** The faults the environment asks for; throws {@link InjectedStartFailure} when this start drew a failure. */
    public static FaultInjection fromEnvironment() {
        return from(System.getenv(), START_DRAW);
    }

    static FaultInjection from(Map<String, String> env) {
        return from(env, 100);
    }

    /** @param draw uniform in [0, 100): the start fails when it is below FAULT_START_FAIL_PERCENT */
    static FaultInjection from(Map<String, String> env, double draw) {
        double startFailure = percent(env, START_FAIL_ENV);
        if (!(startFailure >= 0) || startFailure >= 100) {
            throw new IllegalArgumentException(START_FAIL_ENV + " must be at least 0 and below 100, got " + startFailure);
        }
        FaultInjection faults = new FaultInjection(percent(env, ENV), percent(env, ALLOC_ENV));
        if (draw < startFailure) {
            throw new InjectedStartFailure(startFailure);
        }
        return faults;
    }

    private static double percent(Map<String, String> env, String name) {
        String raw = env.getOrDefault(name, "0").trim();
        try {
            return raw.isEmpty() ? 0 : Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a number, got '" + raw + "'", e);
        }
    }

    private static void check(String name, double percent) {
        if (!(percent >= 0) || percent > 10_000) {
            throw new IllegalArgumentException(name + " must be a number between 0 and 10000, got " + percent);
        }
    }

    public boolean enabled() {
        return cpuPercent > 0 || allocPercent > 0;
    }

    /** The CPU fault's percentage. */
    public double percent() {
        return cpuPercent;
    }

    public double allocPercent() {
        return allocPercent;
    }

    /** What a variant's startup line says about the faults ("" when off). */
    public String describe() {
        return !enabled() ? "" : ENV + " " + cpuPercent + ", " + ALLOC_ENV + " " + allocPercent;
    }

    /** Call when a request starts on the current thread; pass the result to {@link #end(long)}. */
    public long begin() {
        if (allocPercent > 0) {
            ALLOCATED_AT_BEGIN.get()[0] = ALLOCATION.getCurrentThreadAllocatedBytes();
        }
        return THREADS.getCurrentThreadCpuTime();
    }

    /**
     * Call on the same thread when the request ends: allocates {@code allocPercent} of the process's bytes per request,
     * then burns {@code percent} of its CPU time per request (each sized on the request thread's own cost since
     * {@code begin} while the process's is not yet known), and counts the request and what was added.
     */
    public void end(long begin) {
        if (!enabled() || begin < 0) {
            return;
        }
        long faultStart = THREADS.getCurrentThreadCpuTime();
        long bytes = 0;
        if (allocPercent > 0) {
            double perRequest = processCost.bytesPerRequest();
            double base = Double.isNaN(perRequest)
                    ? ALLOCATION.getCurrentThreadAllocatedBytes() - ALLOCATED_AT_BEGIN.get()[0] : perRequest;
            bytes = (long) (base * allocPercent / 100.0);
            allocate(bytes);
        }
        if (cpuPercent > 0) {
            double perRequest = processCost.cpuNanosPerRequest();
            double base = Double.isNaN(perRequest) ? faultStart - begin : perRequest;
            burnCpu((long) (base * cpuPercent / 100.0));
        }
        processCost.requestEnded(THREADS.getCurrentThreadCpuTime() - faultStart, bytes);
    }

    /** Allocates about {@code bytes} (array headers included) in short-lived arrays. */
    void allocate(long bytes) {
        while (bytes > 16) {
            int size = (int) Math.min(CHUNK, bytes - 16);
            allocationSink = new byte[size];
            bytes -= size + 16L;
        }
    }

    /** Spins on the current thread until it has used {@code nanos} more CPU time (not wall time). */
    void burnCpu(long nanos) {
        if (nanos <= 0) {
            return;
        }
        long until = THREADS.getCurrentThreadCpuTime() + nanos;
        long x = sink;
        do {
            for (int i = 0; i < 200; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        } while (THREADS.getCurrentThreadCpuTime() < until);
        sink = x;
    }
}
