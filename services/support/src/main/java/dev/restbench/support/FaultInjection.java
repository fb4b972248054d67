package dev.restbench.support;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Map;

/**
 * The regression drill's fault: extra CPU work per request, sized as a percentage of the CPU time the request's
 * thread already spent. Off by default ({@code FAULT_CPU_PERCENT=0}); variants register their request filter only
 * when {@link #enabled()}, so a normal run carries no trace of it.
 *
 * <p>Sizing the work relative to the request's own CPU time (instead of a fixed number of iterations) makes
 * "5 %" mean the same slowdown in every variant, whatever its baseline cost.
 */
public final class FaultInjection {

    public static final String ENV = "FAULT_CPU_PERCENT";

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private final double percent;

    /** Keeps the JIT from discarding the busy loop. */
    private volatile long sink;

    public FaultInjection(double percent) {
        if (!(percent >= 0) || percent > 10_000) {
            throw new IllegalArgumentException(ENV + " must be a number between 0 and 10000, got " + percent);
        }
        this.percent = percent;
    }

    public static FaultInjection fromEnvironment() {
        return from(System.getenv());
    }

    static FaultInjection from(Map<String, String> env) {
        String raw = env.getOrDefault(ENV, "0").trim();
        try {
            return new FaultInjection(raw.isEmpty() ? 0 : Double.parseDouble(raw));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(ENV + " must be a number, got '" + raw + "'", e);
        }
    }

    public boolean enabled() {
        return percent > 0;
    }

    public double percent() {
        return percent;
    }

    /** Call when a request starts on the current thread; pass the result to {@link #end(long)}. */
    public long begin() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** Call on the same thread when the request ends: burns {@code percent} of the CPU time spent since begin. */
    public void end(long begin) {
        if (!enabled() || begin < 0) {
            return;
        }
        long spent = THREADS.getCurrentThreadCpuTime() - begin;
        burnCpu((long) (spent * percent / 100.0));
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
