package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class PrometheusTextTest {
    private static final String TEXT = """
            # HELP jvm_memory_used_bytes The amount of used memory
            # TYPE jvm_memory_used_bytes gauge
            jvm_memory_used_bytes{area="heap",id="G1 Eden Space"} 1.2E7
            jvm_memory_used_bytes{area="heap",id="G1 Old Gen"} 3000000.0
            jvm_memory_used_bytes{area="nonheap",id="Metaspace"} 5.0E7
            jvm_gc_pause_seconds_sum{action="end of minor GC",cause="G1 Evacuation Pause",gc="G1 Young Generation"} 0.25
            jvm_gc_pause_seconds_sum{action="end of major GC",cause="a \\"quoted\\", label",gc="G1 Old Generation"} 0.5
            jvm_allocation_bytes_total 123456789
            hikaricp_connections_active{pool="HikariPool-1"} 3
            process_uptime_seconds NaN
            """;

    @Test
    void sumsTheMatchingSeries() {
        PrometheusText scrape = PrometheusText.parse(TEXT, 0);
        assertThat(scrape.sum(WindowMetrics.MEMORY_USED, "area", "heap")).hasValue(1.5E7);
        assertThat(scrape.sum(WindowMetrics.MEMORY_USED)).hasValue(6.5E7);
        assertThat(scrape.sum(WindowMetrics.GC_PAUSE_SUM)).hasValue(0.75);
        assertThat(scrape.sum(WindowMetrics.ALLOCATED)).hasValue(123456789);
        assertThat(scrape.sum(WindowMetrics.HIKARI_ACTIVE)).hasValue(3);
    }

    @Test
    void escapedLabelValuesAndMissingSeries() {
        PrometheusText scrape = PrometheusText.parse(TEXT, 0);
        assertThat(scrape.sum(WindowMetrics.GC_PAUSE_SUM, "cause", "a \"quoted\", label")).hasValue(0.5);
        assertThat(scrape.sum(WindowMetrics.THREADS_LIVE)).isEmpty();
        assertThat(scrape.sum(List.of("process_uptime_seconds"))).isEmpty(); // NaN is no value
    }
}
