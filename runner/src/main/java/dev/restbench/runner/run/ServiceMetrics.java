package dev.restbench.runner.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;

/**
 * The service-side metrics of a window and of a startup, from the Prometheus scrapes (meter names in
 * docs/ARCHITECTURE.md "Metrics"; exposition names with and without unit suffixes are both accepted).
 */
final class ServiceMetrics {
    static final List<String> ALLOCATED = List.of("jvm_allocation_bytes_total", "jvm_allocation_bytes");
    static final List<String> MEMORY_USED = List.of("jvm_memory_used_bytes");
    static final List<String> GC_PAUSE_SUM = List.of("jvm_gc_pause_seconds_sum");
    static final List<String> THREADS_LIVE = List.of("jvm_threads_live_threads", "jvm_threads_live");
    static final List<String> CLASSES_LOADED = List.of("jvm_classes_loaded_classes", "jvm_classes_loaded");
    static final List<String> HIKARI_ACTIVE = List.of("hikaricp_connections_active");
    /** Micrometer's process.cpu.time (ns): the CPU source for services at a URL. */
    static final List<String> PROCESS_CPU_NS = List.of("process_cpu_time_ns_total");

    private static final double MB = 1024.0 * 1024.0;

    private ServiceMetrics() {
    }

    /** Per-window metrics; a metric whose meter is absent is left out (the cell then simply lacks it). */
    static Map<String, Double> window(WindowSampler window, long requests) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        if (window.procCpu() && window.jitCpuMicros().isPresent()) { // implies cpuMicros() is present
            cpu(metrics, window.cpuMicros().getAsLong(), window.jitCpuMicros().getAsLong(), requests,
                    window.windowSeconds());
        }
        if (!window.complete()) {
            return metrics;
        }
        PrometheusText first = window.first();
        PrometheusText last = window.last();
        if (!window.procCpu() && requests > 0) {
            // A service the runner did not start: its own process CPU meter, JIT compilation included. The JVM
            // only exposes the compilers' elapsed time (jvm.compilation.time), not their CPU time; subtracting it
            // over-corrected to 0 on a contended core, so this source leaves the JIT in and jit_cpu_ms_per_s out.
            delta(first, last, PROCESS_CPU_NS).ifPresent(ns -> metrics.put("cpu_us_per_req", ns / 1000.0 / requests));
        }
        if (requests > 0) {
            delta(first, last, ALLOCATED).ifPresent(bytes -> metrics.put("alloc_bytes_per_req", bytes / requests));
        }
        List<PrometheusText> scrapes = window.scrapes();
        series(scrapes, s -> s.sum(MEMORY_USED, "area", "heap")).ifPresent(heap -> {
            metrics.put("heap_mean_mb", mean(heap) / MB);
            metrics.put("heap_peak_mb", max(heap) / MB);
        });
        // Micrometer registers jvm.gc.pause at the first GC event: absent from a JVM that exposes its memory
        // meters means "no pause yet", i.e. 0 s.
        if (first.sum(MEMORY_USED).isPresent() && last.sum(MEMORY_USED).isPresent()) {
            double seconds = last.sum(GC_PAUSE_SUM).orElse(0) - first.sum(GC_PAUSE_SUM).orElse(0);
            metrics.put("gc_ms_per_s", seconds * 1000.0 / window.windowSeconds());
        }
        series(scrapes, s -> s.sum(THREADS_LIVE)).ifPresent(threads -> metrics.put("threads_peak", max(threads)));
        series(scrapes, s -> s.sum(HIKARI_ACTIVE)).ifPresent(active -> {
            metrics.put("hikari_active_mean", mean(active));
            metrics.put("hikari_active_peak", max(active));
        });
        return metrics;
    }

    /**
     * JIT compilation is a warm-up cost, not a per-request one: at low rates the compiler threads can burn more CPU
     * than the requests themselves (measured: ~5x at 20 req/s on jersey). So CPU per request leaves it out and it is
     * reported on its own.
     */
    private static void cpu(Map<String, Double> metrics, long cpuUs, long jitUs, long requests, double seconds) {
        // The process total is counted in 10 ms ticks, the compiler threads in ns: with few requests and a busy
        // compiler the difference can round below zero, which is "unmeasurably small", not negative.
        if (requests > 0) {
            metrics.put("cpu_us_per_req", Math.max(0, cpuUs - jitUs) / (double) requests);
        }
        if (seconds > 0) {
            metrics.put("jit_cpu_ms_per_s", jitUs / 1000.0 / seconds);
        }
    }

    /** classes_loaded and live_threads from the first scrape after the service became healthy. */
    static Map<String, Double> startup(PrometheusText firstScrape) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        firstScrape.sum(CLASSES_LOADED).ifPresent(v -> metrics.put("classes_loaded", v));
        firstScrape.sum(THREADS_LIVE).ifPresent(v -> metrics.put("live_threads", v));
        return metrics;
    }

    private static OptionalDouble delta(PrometheusText first, PrometheusText last, List<String> names) {
        OptionalDouble a = first.sum(names);
        OptionalDouble b = last.sum(names);
        return a.isPresent() && b.isPresent() ? OptionalDouble.of(b.getAsDouble() - a.getAsDouble()) : OptionalDouble.empty();
    }

    private static java.util.Optional<double[]> series(List<PrometheusText> scrapes,
                                                       Function<PrometheusText, OptionalDouble> value) {
        double[] values = scrapes.stream().map(value).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        return values.length == 0 ? java.util.Optional.empty() : java.util.Optional.of(values);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static double max(double[] values) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            max = Math.max(max, v);
        }
        return max;
    }
}
