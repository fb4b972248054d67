package dev.restbench.contract;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The endpoints every variant shares (docs/ARCHITECTURE.md, "Endpoints common to every variant" and "Metrics"):
 * health, and the same meter names in the Prometheus scrape, which the runner reads without knowing the stack.
 */
@ParameterizedClass(name = "{0}", allowZeroInvocations = true)
@MethodSource("dev.restbench.contract.ContractManifest#all") // every variant in benchmarks.json
@ExtendWith(ContractEnvironment.class)
class OperationsEndpointsTest {

    /** Prometheus names every variant exposes, whatever its runtime (the runner's window metrics need them). */
    private static final List<String> HTTP_METERS = List.of(
            "http_server_requests_seconds_count",
            "http_server_requests_seconds_bucket");

    /**
     * And every JVM variant (Micrometer's base units and suffixes). A variant on another runtime exposes those that
     * exist there under the same names; the runner leaves the others out of its results (absent, not zero).
     */
    private static final List<String> JVM_METERS = List.of(
            "jvm_memory_used_bytes", "jvm_memory_committed_bytes", "jvm_memory_max_bytes",
            "jvm_gc_memory_allocated_bytes_total",
            "jvm_threads_live_threads", "jvm_threads_peak_threads",
            "jvm_classes_loaded_classes",
            "process_cpu_usage", "process_cpu_time_ns_total", "process_uptime_seconds",
            "jvm_compilation_time_ms_total",
            "process_start_time_seconds",
            "jvm_allocation_bytes_total",
            "application_ready_time_seconds");

    /**
     * And every variant whose classification says {@code connectionPool: hikaricp} (the runner's Hikari rows read
     * them); a variant on another pool (R2DBC's, Agroal, node-postgres) has no such rows, absent rather than faked.
     */
    private static final List<String> HIKARI_METERS = List.of(
            "hikaricp_connections_active", "hikaricp_connections_idle", "hikaricp_connections_pending",
            "hikaricp_connections_max");

    private final String variant;
    private final Http http;
    private final ContractEnvironment.Service service;

    OperationsEndpointsTest(String variant) {
        this.variant = variant;
        this.service = ContractEnvironment.service(variant);
        this.http = new Http(service.baseUri());
    }

    @Test
    void reportsHealthUp() {
        // The variant's own health path (benchmarks.json), held to the contract's health operation.
        Http.Response health = http.get(service.healthPath());
        OpenApiContract.get().assertConforms("GET", "/actuator/health", health);
        assertThat(health.json().path("status").asText()).isEqualTo("UP");
    }

    @Test
    void exposesTheSharedMetersWithRouteTemplates() {
        assertThat(http.get("/items/7").status()).isIn(200, 404);
        assertThat(http.get("/cache/key7").status()).isEqualTo(200);
        assertThat(http.request("GET", "/cache/key8").accept("text/csv").send().status()).isEqualTo(406);
        Http.Response scrape = http.request("GET", service.metricsPath()).accept("text/plain").send();
        assertThat(scrape.status()).as("%s", scrape).isEqualTo(200);
        assertThat(scrape.mediaType()).isEqualTo("text/plain");
        List<String> names = scrape.body().lines()
                .filter(line -> !line.startsWith("#") && !line.isBlank())
                .map(line -> line.split("[{ ]", 2)[0])
                .distinct()
                .toList();
        assertThat(names).as("%s meters", variant).containsAll(HTTP_METERS);
        if (ContractManifest.variant(variant).runtime().isJdk()) {
            assertThat(names).as("%s JVM meters", variant).containsAll(JVM_METERS);
        }
        if ("hikaricp".equals(ContractManifest.variant(variant).labels().get("connectionPool"))) {
            assertThat(names).as("%s HikariCP meters", variant).containsAll(HIKARI_METERS);
        }
        assertThat(scrape.body()).as("the uri tag is the route template, not the raw path")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/items/\\{id}\"")
                .doesNotContain("uri=\"/items/7\"")
                .containsPattern("http_server_requests_seconds_count\\{[^}]*uri=\"/cache/\\{key}\"")
                .doesNotContain("uri=\"/cache/key7\"").doesNotContain("uri=\"/cache/key8\"");
    }

    /**
     * Every variant keeps a connection open for any number of requests (Tomcat closes after 100 by default, Grizzly
     * after 256): a load generator reusing its connections must not pay reconnects in some variants only. More
     * requests than either default limit on one connection, none may be answered with {@code Connection: close}.
     */
    @Test
    void keepsAConnectionOpenForAnyNumberOfRequests() throws IOException, InterruptedException {
        URI health = service.baseUri().resolve(service.healthPath());
        // Its own client: one connection, used only by this test.
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        for (int i = 1; i <= 300; i++) {
            HttpResponse<Void> response = client.send(
                    HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(60)).build(),
                    HttpResponse.BodyHandlers.discarding());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.headers().firstValue("Connection"))
                    .as("%s, request %d on one connection", variant, i)
                    .isNotEqualTo(Optional.of("close"));
        }
    }

    /**
     * Histograms cost scrape time per bucket, so every variant publishes the same ones: only
     * {@code http.server.requests} (not Spring's {@code http.server.requests.active}, which the property name
     * prefix would also match), with Micrometer's default timer range of 1 ms to 30 s. Nor does any variant time
     * its repository calls (Spring Data's {@code spring.data.repository.invocations}).
     */
    @Test
    void publishesTheSameHistogramsAsEveryVariant() {
        assertThat(http.get("/items/7").status()).isIn(200, 404);
        String scrape = http.request("GET", service.metricsPath()).accept("text/plain").send().body();
        List<String> histograms = scrape.lines()
                .filter(line -> !line.startsWith("#"))
                .map(line -> line.split("[{ ]", 2)[0])
                .filter(name -> name.endsWith("_bucket"))
                .distinct()
                .toList();
        assertThat(histograms).as("%s histograms", variant).containsExactly("http_server_requests_seconds_bucket");
        assertThat(scrape).as("%s: no timer around repository calls (jersey has none)", variant)
                .doesNotContain("spring_data_repository_invocations");
        TreeSet<Double> bounds = new TreeSet<>();
        Matcher le = Pattern.compile("^http_server_requests_seconds_bucket\\{[^}]*le=\"([^\"]+)\"", Pattern.MULTILINE)
                .matcher(scrape);
        while (le.find()) {
            if (!le.group(1).equals("+Inf")) {
                bounds.add(Double.parseDouble(le.group(1)));
            }
        }
        assertThat(bounds).as("%s buckets", variant).isNotEmpty();
        assertThat(bounds.first()).as("%s smallest bucket", variant).isEqualTo(0.001);
        assertThat(bounds.last()).as("%s largest finite bucket", variant).isEqualTo(30.0);
    }
}
