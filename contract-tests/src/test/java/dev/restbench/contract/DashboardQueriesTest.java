package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import dev.restbench.manifest.Manifest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard ({@code compose/grafana/dashboards/restbench.json}) against a real Prometheus that scrapes
 * every variant of the suite, as {@code ./bench compose} has it scrape them: the variable lists every variant, and
 * every panel's query returns a series for exactly the variants whose runtime and pool export what it reads. A
 * panel's description names the others ("Absent for runtime node", "pool agroal"), so a reader of the dashboard
 * knows why a line is missing and this test knows which are allowed to be.
 */
@ExtendWith(ContractEnvironment.class)
class DashboardQueriesTest {

    private static final Path DASHBOARD = ContractManifest.root()
            .resolve("compose/grafana/dashboards/restbench.json");
    private static final Pattern ABSENT = Pattern.compile("Absent for ([^.:]*)");
    private static final Pattern ABSENT_KEY = Pattern.compile("(runtime|pool) ([\\w-]+)");
    private static final Duration SCRAPE_INTERVAL = Duration.ofSeconds(1);
    /** What {@code $__rate_interval} stands for: several scrapes at {@link #SCRAPE_INTERVAL}. */
    private static final String RATE_INTERVAL = "10s";

    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final Map<String, ContractEnvironment.Service> services = new LinkedHashMap<>();
    private static Process prometheus;
    private static URI prometheusUri;
    private static Path workDir;

    @BeforeAll
    static void scrapeEveryVariantUnderLoad() throws Exception {
        for (String variant : ContractManifest.all()) {
            services.put(variant, ContractEnvironment.service(variant));
        }
        workDir = Files.createTempDirectory("restbench-prometheus");
        Path config = workDir.resolve("prometheus.yml");
        Files.writeString(config, config());
        int port = VariantProcess.freePort();
        prometheusUri = URI.create("http://127.0.0.1:" + port);
        prometheus = new ProcessBuilder(binary().toString(), "--config.file=" + config,
                "--storage.tsdb.path=" + workDir.resolve("data"), "--web.listen-address=127.0.0.1:" + port,
                "--log.level=warn")
                .redirectErrorStream(true)
                .redirectOutput(ContractEnvironment.OUTPUT.resolve("prometheus.log").toFile())
                .start();
        awaitReady();
        // Requests of every kind the panels count, for longer than the rate window: a rate needs two scrapes. On a
        // slow or busy host a 1 s scrape of a JVM's endpoint can time out (CI on 2026-12-01 missed 9 of 27 jobs
        // after 12 s), so the traffic goes on until every job has three successful scrapes within the rate window,
        // at most 90 s; the panels' own checks then say what is still missing.
        long start = System.nanoTime();
        long minimum = start + Duration.ofSeconds(12).toNanos();
        long deadline = start + Duration.ofSeconds(90).toNanos();
        String scraped = "sum by (job) (sum_over_time(up[" + RATE_INTERVAL + "])) >= 3";
        while (System.nanoTime() < minimum
                || System.nanoTime() < deadline && !scrapedSoFar(scraped).containsAll(services.keySet())) {
            for (ContractEnvironment.Service service : services.values()) {
                Http http = new Http(service.baseUri());
                http.get("/items/1");
                http.get("/items?size=100");
                http.get("/cache/key1");
            }
            Thread.sleep(200);
        }
    }

    @AfterAll
    static void stopPrometheus() throws IOException {
        if (prometheus != null) {
            prometheus.destroy();
            try {
                if (!prometheus.waitFor(10, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (workDir != null) {
            try (var paths = Files.walk(workDir)) {
                for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(path);
                }
            }
        }
    }

    @Test
    void theVariableListsEveryVariant() throws IOException {
        String query = Http.JSON.readTree(read(DASHBOARD)).path("templating").path("list").get(0).path("query")
                .asText();
        Matcher labelValues = Pattern.compile("label_values\\((\\w+), job\\)").matcher(query);
        assertThat(labelValues.matches()).as(query).isTrue();
        assertThat(jobs("group by (job) (" + labelValues.group(1) + ")")).isEqualTo(new TreeSet<>(services.keySet()));
    }

    @Test
    void everyPanelShowsEveryVariantThatExportsWhatItReads() throws IOException {
        List<String> failures = new ArrayList<>();
        for (JsonNode panel : Http.JSON.readTree(read(DASHBOARD)).path("panels")) {
            String title = panel.path("title").asText();
            Set<String> expected = expectedJobs(panel.path("description").asText(""));
            for (JsonNode target : panel.path("targets")) {
                String expr = target.path("expr").asText().replace("$variant", ".*")
                        .replace("$__rate_interval", RATE_INTERVAL);
                Set<String> shown = jobs(expr);
                if (!shown.equals(expected)) {
                    Set<String> missing = new TreeSet<>(expected);
                    missing.removeAll(shown);
                    Set<String> unexpected = new TreeSet<>(shown);
                    unexpected.removeAll(expected);
                    failures.add(title + ": missing " + missing + ", shown although the description says absent "
                            + unexpected);
                }
            }
        }
        assertThat(failures).as("panels of %s", DASHBOARD).isEmpty();
    }

    /** Every variant of the suite but those whose runtime or pool the description calls absent. */
    private static Set<String> expectedJobs(String description) {
        Set<String> absentRuntimes = new TreeSet<>();
        Set<String> absentPools = new TreeSet<>();
        Matcher absent = ABSENT.matcher(description);
        while (absent.find()) {
            Matcher key = ABSENT_KEY.matcher(absent.group(1));
            while (key.find()) {
                (key.group(1).equals("runtime") ? absentRuntimes : absentPools).add(key.group(2));
            }
        }
        Set<String> expected = new TreeSet<>();
        for (String variant : services.keySet()) {
            Manifest.Variant entry = ContractManifest.variant(variant);
            if (!absentRuntimes.contains(entry.runtime().name())
                    && !absentPools.contains(entry.labels().get("connectionPool"))) {
                expected.add(variant);
            }
        }
        return expected;
    }

    /** {@link #jobs} while waiting: a query Prometheus fails to answer yet (busy host) means "not yet", not a failure. */
    private static Set<String> scrapedSoFar(String expr) {
        try {
            return jobs(expr);
        } catch (AssertionError | RuntimeException e) {
            return Set.of();
        }
    }

    /** The jobs of the series an instant query returns. */
    private static Set<String> jobs(String expr) {
        URI uri = prometheusUri.resolve("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
        try {
            HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                    .build(), HttpResponse.BodyHandlers.ofString());
            JsonNode body = Http.JSON.readTree(response.body());
            assertThat(body.path("status").asText()).as("%s: %s", expr, response.body()).isEqualTo("success");
            Set<String> jobs = new TreeSet<>();
            body.path("data").path("result").forEach(series -> jobs.add(series.path("metric").path("job").asText()));
            return jobs;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One job per variant, named after it, scraping its metrics path: the jobs {@code ./bench compose} writes. */
    private static String config() {
        StringBuilder yaml = new StringBuilder("global:\n  scrape_interval: " + SCRAPE_INTERVAL.toSeconds() + "s\n"
                + "  scrape_timeout: " + SCRAPE_INTERVAL.toSeconds() + "s\nscrape_configs:\n");
        services.forEach((variant, service) -> yaml.append("  - job_name: ").append(variant).append('\n')
                .append("    metrics_path: ").append(service.metricsPath()).append('\n')
                .append("    static_configs:\n      - targets: ['").append(service.baseUri().getHost()).append(':')
                .append(service.baseUri().getPort()).append("']\n"));
        return yaml.toString();
    }

    private static Path binary() throws IOException, InterruptedException {
        Process install = new ProcessBuilder("bash", ContractManifest.root().resolve("compose/prometheus/install.sh")
                .toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String path = new String(install.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (install.waitFor() != 0 || path.isEmpty()) {
            throw new IllegalStateException("compose/prometheus/install.sh found no Prometheus, nor could install one");
        }
        return Path.of(path);
    }

    private static void awaitReady() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!prometheus.isAlive()) {
                throw new IllegalStateException("prometheus exited: see " + ContractEnvironment.OUTPUT
                        .resolve("prometheus.log"));
            }
            try {
                HttpResponse<Void> ready = CLIENT.send(HttpRequest.newBuilder(prometheusUri.resolve("/-/ready"))
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
                if (ready.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("prometheus not ready within 60 s");
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
