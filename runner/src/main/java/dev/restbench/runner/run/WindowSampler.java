package dev.restbench.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Samples the service during one measured window: at the exact start and end edges (process CPU time from
 * /proc/&lt;pid&gt;/stat, the JIT compiler threads' CPU time from /proc/&lt;pid&gt;/task, and a metrics scrape), and a
 * scrape about once a second in between.
 */
final class WindowSampler implements GatlingLauncher.WindowListener {
    private final ServiceUnderTest service;
    private final List<PrometheusText> scrapes = new ArrayList<>();
    private ScheduledExecutorService timer;
    private volatile PrometheusText first;
    private volatile PrometheusText last;
    private volatile OptionalLong cpuStart = OptionalLong.empty();
    private volatile OptionalLong cpuEnd = OptionalLong.empty();
    private volatile Map<Long, Long> jitStart = Map.of();
    private volatile Map<Long, Long> jitEnd = Map.of();
    private volatile long startNanos;
    private volatile long endNanos;

    WindowSampler(ServiceUnderTest service) {
        this.service = service;
    }

    @Override
    public void started() {
        // Process CPU outside, compiler threads inside (start: process first; end: process last), so the
        // subtracted JIT interval never extends beyond the process interval.
        cpuStart = service.cpuMicros();
        jitStart = service.jitThreadCpuMicros();
        startNanos = System.nanoTime();
        first = scrapeQuietly();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "bench-scrape");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::scrapeQuietly, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public void completed() {
        if (timer == null) {
            return;
        }
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        jitEnd = service.jitThreadCpuMicros();
        cpuEnd = service.cpuMicros();
        endNanos = System.nanoTime();
        last = scrapeQuietly();
    }

    private PrometheusText scrapeQuietly() {
        try {
            PrometheusText scrape = service.scrape();
            synchronized (scrapes) {
                scrapes.add(scrape);
            }
            return scrape;
        } catch (Exception e) {
            return null; // a missed scrape only thins the series; missing edges drop the windowed metrics
        }
    }

    boolean complete() {
        return first != null && last != null && endNanos > startNanos;
    }

    double windowSeconds() {
        return (endNanos - startNanos) / 1e9;
    }

    /** Whether CPU comes from /proc (a process the runner started) rather than the service's own meters. */
    boolean procCpu() {
        return service.procCpu();
    }

    /** The whole process's CPU time over the window, JIT compiler threads included. */
    OptionalLong cpuMicros() {
        return cpuStart.isPresent() && cpuEnd.isPresent()
                ? OptionalLong.of(cpuEnd.getAsLong() - cpuStart.getAsLong()) : OptionalLong.empty();
    }

    /**
     * The JIT compiler threads' CPU time over the window: a thread started inside the window counts from zero; one
     * that ended inside it is lost (rare: HotSpot retires idle compiler threads), which can only make the
     * compile share look smaller, never larger.
     */
    OptionalLong jitCpuMicros() {
        if (cpuMicros().isEmpty() || jitStart.isEmpty() && !jitEnd.isEmpty()) {
            return OptionalLong.empty(); // compiler threads unreadable at the start: unknown, not "all new"
        }
        long sum = 0;
        for (Map.Entry<Long, Long> thread : jitEnd.entrySet()) {
            sum += Math.max(0, thread.getValue() - jitStart.getOrDefault(thread.getKey(), 0L));
        }
        return OptionalLong.of(sum);
    }

    PrometheusText first() {
        return first;
    }

    PrometheusText last() {
        return last;
    }

    List<PrometheusText> scrapes() {
        synchronized (scrapes) {
            return List.copyOf(scrapes);
        }
    }
}
