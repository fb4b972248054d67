package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.runner.Main;
import dev.restbench.runner.io.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `./bench run --services …`: the runner measures a variant that is already running (here the real jersey jar,
 * started by the test the way compose starts it, on a real embedded PostgreSQL), reloads the dataset into that
 * service's own database before the cell, takes CPU from the service's metrics, and leaves the service running.
 */
class ExternalServicesTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    @Test
    void aRunningServiceIsMeasuredAtItsUrlOnItsOwnDatabaseAndLeftRunning(@TempDir Path tmp) throws Exception {
        Path jar = ROOT.resolve("services/jersey/target/jersey.jar");
        // Built by ./run-tests before ./mvnw verify; skipping when they are missing would hide a broken build.
        assertThat(List.of(jar, ROOT.resolve("gatling/target/gatling-classpath.txt")))
                .as("build the variants first (./bench build; ./run-tests does)").allSatisfy(f -> assertThat(f).isRegularFile());
        try (PostgresServer postgres = PostgresServer.embedded(0, false)) {
            try (Connection admin = postgres.connect("postgres"); Statement statement = admin.createStatement()) {
                statement.execute("CREATE DATABASE shop");
            }
            String databaseUrl = postgres.jdbcUrl("shop");
            // The service's database as a compose stack would have it: loaded, then written to by earlier traffic.
            PostgresServer.external(databaseUrl, postgres.user(), postgres.password())
                    .reloadDataset(new DatasetSpec(20, 500, 0.1, 42));
            try (Connection shop = postgres.connect("shop"); Statement statement = shop.createStatement()) {
                statement.execute("INSERT INTO item (sku, name, price, stock, category_id, updated_at) "
                        + "VALUES ('LEFTOVER', 'from an earlier run', 1, 1, 1, now())");
            }
            int port = ServiceProcess.freePort();
            ProcessBuilder builder = new ProcessBuilder(javaBin(), "-Xmx256m", "-jar", jar.toString())
                    .redirectErrorStream(true).redirectOutput(tmp.resolve("jersey.log").toFile());
            builder.environment().put("PORT", Integer.toString(port));
            builder.environment().put("BIND_ADDRESS", "127.0.0.1");
            builder.environment().put("DB_URL", databaseUrl);
            builder.environment().put("DB_USER", postgres.user());
            builder.environment().put("DB_PASSWORD", postgres.password());
            Process service = builder.start();
            try {
                String url = "http://127.0.0.1:" + port;
                new ServiceEndpoint(url, "/actuator/health", "/actuator/prometheus").awaitHealthy(Duration.ofSeconds(120));
                Path results = tmp.resolve("results");

                int exit = Main.execute(List.of("run", "--root", ROOT.toString(), "--manifest",
                        liftedBudgetManifest(tmp, 180).toString(), "--profile", "smoke", "--variants", "jersey",
                        "--services", "jersey=" + url + "/", "--database-url", databaseUrl,
                        "--database-user", postgres.user(), "--database-password", postgres.password(),
                        "--results", results.toString(), "--no-tables"));

                Path runDir = RunOutputs.onlyRun(results);
                JsonNode run = RunOutputs.validRunJson(runDir);
                assertThat(run.get("cells")).as(run.toPrettyString()).allSatisfy(cell ->
                        assertThat(cell.get("status").asText()).as(cell.path("reason").asText()).isEqualTo("ok"));
                assertThat(exit).isZero();
                assertThat(run.get("cells")).hasSize(2);
                JsonNode environment = run.get("environment");
                assertThat(environment.get("cpuSource").asText()).isEqualTo("metrics");
                assertThat(environment.get("services").get("jersey").asText()).isEqualTo(url);
                assertThat(environment.get("pinning").get("service").asText()).isEqualTo("external");
                assertThat(environment.get("pinning").get("postgres").asText()).isEqualTo("external");
                for (JsonNode cell : run.get("cells")) {
                    JsonNode metrics = cell.get("metrics");
                    assertThat(metrics.get("throughput").get("median").asDouble()).isPositive();
                    // From process_cpu_time (ns), in µs: CPU/request × requests/s can be at most every core busy (a
                    // unit slip would be off by 1000).
                    double cpuPerRequest = metrics.get("cpu_us_per_req").get("median").asDouble();
                    assertThat(cpuPerRequest).as("µs per request").isGreaterThan(10);
                    assertThat(cpuPerRequest * metrics.get("throughput").get("median").asDouble())
                            .isLessThanOrEqualTo(1e6 * Runtime.getRuntime().availableProcessors());
                    assertThat(metrics.has("jit_cpu_ms_per_s")).as("no per-thread CPU without /proc").isFalse();
                    assertThat(metrics.get("alloc_bytes_per_req").get("median").asDouble()).isPositive();
                }
                assertThat(run.get("variants")).as("no startup measurements for a service the runner did not start")
                        .hasSize(1).allSatisfy(variant -> assertThat(variant.get("startup").isEmpty()).isTrue());
                assertThat(Files.readString(runDir.resolve("summary.md")))
                        .contains("services measured at URLs, not started by the runner", "jersey " + url);
                assertThat(service.isAlive()).as("the runner leaves a service it did not start running").isTrue();
                try (Connection shop = postgres.connect("shop"); Statement statement = shop.createStatement();
                     ResultSet rs = statement.executeQuery("SELECT count(*), count(*) FILTER (WHERE sku = 'LEFTOVER') "
                             + "FROM item")) {
                    rs.next();
                    assertThat(rs.getLong(1)).as("the smoke profile's dataset, reloaded").isEqualTo(500);
                    assertThat(rs.getLong(2)).as("rows of earlier traffic are gone").isZero();
                }
            } finally {
                service.destroy();
                service.waitFor();
            }
        }
    }

    @Test
    void aServiceThatDoesNotAnswerYieldsFailedCellsWithTheReason(@TempDir Path tmp) throws Exception {
        try (PostgresServer postgres = PostgresServer.embedded(0, false)) {
            String nobody = "http://127.0.0.1:" + ServiceProcess.freePort();
            Path results = tmp.resolve("results");

            int exit = Main.execute(List.of("run", "--root", ROOT.toString(), "--manifest",
                    liftedBudgetManifest(tmp, 2).toString(), "--profile", "smoke",
                    "--services", "spring-mvc=" + nobody, "--database-url", postgres.jdbcUrl("postgres"),
                    "--database-user", postgres.user(), "--database-password", postgres.password(),
                    "--results", results.toString(), "--no-tables"));

            assertThat(exit).isEqualTo(1);
            JsonNode run = RunOutputs.validRunJson(RunOutputs.onlyRun(results));
            assertThat(run.get("cells")).hasSize(2).allSatisfy(cell -> {
                assertThat(cell.get("variant").asText()).isEqualTo("spring-mvc");
                assertThat(cell.get("status").asText()).isEqualTo("failed");
                assertThat(cell.get("reason").asText()).isEqualTo("start 1: health: not healthy after 2 s (GET " + nobody
                        + "/actuator/health never answered 200)");
                assertThat(cell.has("metrics")).isFalse();
            });
        }
    }

    @Test
    void servicesWithoutTheirDatabaseOrWithAnUnknownVariantAreUsageErrors() {
        assertThat(usageError("--services", "jersey=http://127.0.0.1:8081"))
                .contains("--services needs --database-url");
        assertThat(usageError("--services", "nope=http://127.0.0.1:8081", "--database-url",
                "jdbc:postgresql://127.0.0.1:1/x")).contains("--services: unknown variant 'nope'");
        assertThat(usageError("--services", "jersey=127.0.0.1:8081", "--database-url",
                "jdbc:postgresql://127.0.0.1:1/x")).contains("'jersey=127.0.0.1:8081' is not variant=http://host:port");
        assertThat(usageError("--services", "jersey=http://127.0.0.1:8081", "--variants", "spring-mvc",
                "--database-url", "jdbc:postgresql://127.0.0.1:1/x")).contains("variant 'spring-mvc' has no URL in --services");
    }

    private static String usageError(String... args) {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            List<String> argv = new java.util.ArrayList<>(List.of("run", "--root", ROOT.toString(), "--dry-run"));
            argv.addAll(List.of(args));
            assertThat(Main.execute(argv)).isEqualTo(2);
        } finally {
            System.setErr(err);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }

    /** The real manifest with the health timeout set and the error budget lifted (a noisy box is not a failure). */
    private static Path liftedBudgetManifest(Path tmp, int healthTimeoutSeconds) throws Exception {
        ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        manifest.remove("$schema");
        ((ObjectNode) manifest.get("errorBudget")).put("capacityP99Ms", 600000).put("maxErrorPct", 100);
        ((ObjectNode) manifest.get("defaults")).put("healthTimeoutSeconds", healthTimeoutSeconds);
        Path file = tmp.resolve("benchmarks-" + healthTimeoutSeconds + ".json");
        Json.MAPPER.writeValue(file.toFile(), manifest);
        return file;
    }

    private static String javaBin() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }
}
