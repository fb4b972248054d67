package dev.restbench.contract;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoints every variant shares (docs/ARCHITECTURE.md, "Endpoints common to every variant" and "Metrics"):
 * health, and the same meter names in the Prometheus scrape, which the runner reads without knowing the stack.
 */
@ParameterizedClass(name = "{0}")
@ValueSource(strings = {"jersey", "spring-mvc", "spring-data-rest"})
@ExtendWith(ContractEnvironment.class)
class OperationsEndpointsTest {

    /** Prometheus names of the shared meters (Micrometer's base units and suffixes). */
    private static final List<String> SHARED_METERS = List.of(
            "http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket",
            "jvm_memory_used_bytes", "jvm_memory_committed_bytes", "jvm_memory_max_bytes",
            "jvm_gc_memory_allocated_bytes_total",
            "jvm_threads_live_threads", "jvm_threads_peak_threads",
            "jvm_classes_loaded_classes",
            "process_cpu_usage", "process_cpu_time_ns_total", "process_uptime_seconds",
            "process_start_time_seconds",
            "hikaricp_connections_active", "hikaricp_connections_idle", "hikaricp_connections_pending",
            "hikaricp_connections_max",
            "jvm_allocation_bytes_total",
            "application_ready_time_seconds");

    private final String variant;
    private final Http http;

    OperationsEndpointsTest(String variant) {
        this.variant = variant;
        this.http = new Http(ContractEnvironment.service(variant).baseUri());
    }

    @Test
    void reportsHealthUp() {
        Http.Response health = http.get("/actuator/health");
        OpenApiContract.get().assertConforms("GET", "/actuator/health", health);
        assertThat(health.json().path("status").asText()).isEqualTo("UP");
    }

    @Test
    void exposesTheSharedMetersWithRouteTemplates() {
        assertThat(http.get("/items/7").status()).isIn(200, 404);
        Http.Response scrape = http.request("GET", "/actuator/prometheus").accept("text/plain").send();
        assertThat(scrape.status()).as("%s", scrape).isEqualTo(200);
        assertThat(scrape.mediaType()).isEqualTo("text/plain");
        List<String> names = scrape.body().lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0])
                .distinct()
                .toList();
        assertThat(names).as("%s meters", variant).containsAll(SHARED_METERS);
        assertThat(scrape.body()).as("the uri tag is the route template, not the raw path")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/items/\\{id}\"")
                .doesNotContain("uri=\"/items/7\"");
    }
}
