package dev.restbench.runner.analysis;

import java.util.List;

/**
 * The metric ids the runner computes, in display order. What each one is — label, unit, direction, version, where it
 * is primary, its minimum effect — lives in one place, benchmarks.json's {@code metrics} (checked at load to
 * describe exactly these ids, {@code manifest.Manifests}); a run records it in run.json's {@code metricDefinitions},
 * which is where a record's readers find it.
 */
public final class MetricCatalog {

    private static final List<String> IDS = List.of(
            "throughput", "req_per_cpu_s", "latency_p50", "latency_p95", "latency_p99", "latency_max", "server_us_per_req",
            "error_pct", "cpu_us_per_req", "alloc_bytes_per_req", "heap_mean_mb", "heap_peak_mb", "gc_ms_per_s",
            "jit_cpu_ms_per_s", "load_generator_cpu_us_per_req",
            "postgres_cpu_us_per_req", "warmup_s", "threads_peak", "hikari_active_mean", "hikari_active_peak",
            "sql_statements_per_req", "sql_rows_per_req", "sql_blocks_per_req", "sql_text_bytes_per_req",
            "sql_plans_per_req", "response_bytes_per_req",
            "time_to_ready_ms",
            "rss_after_start_mb", "heap_after_start_mb", "classes_loaded", "live_threads");

    private MetricCatalog() {
    }

    /** Every metric id the runner produces, in display order. */
    public static List<String> ids() {
        return IDS;
    }

    /** Position for sorting tables: catalogue order, unknown ids after all known ones. */
    public static int order(String id) {
        int i = IDS.indexOf(id);
        return i < 0 ? IDS.size() : i;
    }
}
