package dev.restbench.runner.analysis;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Units, directions and display order of the metric ids (docs/ARCHITECTURE.md "Results, history and their
 * names"). Cell metrics carry their unit and direction in run.json; startup metrics do not, so they come from
 * here. Unknown ids sort last and count as smaller-is-better.
 */
public final class MetricCatalog {

    public record Metric(String unit, Direction direction) {
    }

    private static final Map<String, Metric> METRICS = new LinkedHashMap<>();

    static {
        put("throughput", "req/s", Direction.BIGGER);
        put("latency_p50", "ms", Direction.SMALLER);
        put("latency_p95", "ms", Direction.SMALLER);
        put("latency_p99", "ms", Direction.SMALLER);
        put("latency_max", "ms", Direction.SMALLER);
        put("error_pct", "%", Direction.SMALLER);
        put("cpu_us_per_req", "µs", Direction.SMALLER);
        put("req_per_cpu_s", "req/s", Direction.BIGGER);
        put("alloc_bytes_per_req", "B", Direction.SMALLER);
        put("heap_mean_mb", "MB", Direction.SMALLER);
        put("heap_peak_mb", "MB", Direction.SMALLER);
        put("gc_ms_per_s", "ms/s", Direction.SMALLER);
        put("jit_cpu_ms_per_s", "ms/s", Direction.SMALLER);
        put("threads_peak", "threads", Direction.SMALLER);
        put("hikari_active_mean", "connections", Direction.SMALLER);
        put("hikari_active_peak", "connections", Direction.SMALLER);
        put("sql_statements_per_req", "statements", Direction.SMALLER);
        put("sql_rows_per_req", "rows", Direction.SMALLER);
        put("time_to_ready_ms", "ms", Direction.SMALLER);
        put("rss_after_start_mb", "MB", Direction.SMALLER);
        put("heap_after_start_mb", "MB", Direction.SMALLER);
        put("classes_loaded", "classes", Direction.SMALLER);
        put("live_threads", "threads", Direction.SMALLER);
    }

    private MetricCatalog() {
    }

    private static void put(String id, String unit, Direction direction) {
        METRICS.put(id, new Metric(unit, direction));
    }

    /** Every metric id the runner produces, in display order. */
    public static List<String> ids() {
        return List.copyOf(METRICS.keySet());
    }

    public static Metric lookup(String id) {
        return METRICS.getOrDefault(id, new Metric("", Direction.SMALLER));
    }

    /** Position for sorting tables: catalogue order, unknown ids after all known ones. */
    public static int order(String id) {
        int i = 0;
        for (String known : METRICS.keySet()) {
            if (known.equals(id)) {
                return i;
            }
            i++;
        }
        return i;
    }
}
