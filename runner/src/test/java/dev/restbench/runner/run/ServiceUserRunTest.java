package dev.restbench.runner.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.isolation.ThrowawayUser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code BENCH_SERVICE_USER=<user> ./bench run} end to end (the CLI in a JVM of its own, as the workflow calls it;
 * real embedded PostgreSQL, this checkout's jersey jar, real Gatling), with a throwaway user ({@link ThrowawayUser}).
 * The variant is jersey behind a probe that, as the service, reports its uid from /proc and tries to write into the
 * results the runner is writing (which it can see: the directory is readable); then it runs jersey. The run must
 * measure it as usual, every write must fail, and nothing of the user may be left afterwards.
 */
class ServiceUserRunTest {
    static final Path ROOT = BrokenVariantTest.ROOT;

    private static final String PROBE = """
            echo "probe: $(grep '^Uid:' /proc/$$/status)"
            for target in "$PROBE_RESULTS/forged.json" "$PROBE_RESULTS"/*/forged.json "$PROBE_RESULTS"/*/summary.md \
                "$PROBE_RESULTS"/*/logs/probe-s1.log; do
              if (echo forged >> "$target") 2>/dev/null; then echo "probe: WROTE $target"; else echo "probe: DENIED $target"; fi
            done
            exec "$@"
            """;

    @Test
    void theServiceRunsAsTheUserCannotWriteTheResultsAndIsMeasured(@TempDir Path tmp) throws Exception {
        Path jar = ROOT.resolve("services/jersey/target/jersey.jar");
        assertThat(jar).as("build the variants first (./bench build; ./run-tests does)").isRegularFile();
        assertThat(ROOT.resolve("gatling/target/gatling-classpath.txt")).isRegularFile();
        try (ThrowawayUser throwaway = ThrowawayUser.create()) {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x")); // the probe may look
            Path results = tmp.resolve("results");
            ObjectNode manifest = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
            manifest.remove("$schema");
            manifest.get("profiles").forEach(p -> ((ObjectNode) p).remove(List.of("variants", "where")));
            // Overload is not breakage (SmokeProfileEndToEndTest): only a crash or a failed start fails a cell.
            ((ObjectNode) manifest.get("errorBudget")).put("capacityP99Ms", 600000).put("maxErrorPct", 100);
            ObjectNode probe = null;
            for (JsonNode variant : manifest.get("variants")) {
                if (variant.get("name").asText().equals("jersey")) {
                    probe = ((ObjectNode) variant).deepCopy();
                }
            }
            probe.put("name", "probe");
            probe.putArray("command").add("sh").add("-c").add(PROBE).add("probe").add("{java}").add("{jvmOptions}")
                    .add("-jar").add("{artifact}");
            probe.putObject("env").put("PROBE_RESULTS", results.toString());
            ((ArrayNode) manifest.putArray("variants")).add(probe);
            Path manifestFile = tmp.resolve("benchmarks.json");
            Json.MAPPER.writeValue(manifestFile.toFile(), manifest);

            ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                    "-Drestbench.root=" + ROOT, "dev.restbench.runner.Main", "run", "--root", ROOT.toString(),
                    "--manifest", manifestFile.toString(), "--profile", "smoke", "--results", results.toString(),
                    "--no-tables", "--no-build").redirectErrorStream(true);
            builder.environment().put(ServiceUser.ENV, throwaway.name());
            Process bench = builder.start();
            String out = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(bench.waitFor(5, TimeUnit.MINUTES)).isTrue();

            assertThat(bench.exitValue()).as(out).isZero();
            int uid = throwaway.uid();
            assertThat(out).contains("services run as " + throwaway.user().describe());
            Path runDir = RunOutputs.onlyRun(results);
            String log = Files.readString(runDir.resolve("logs/probe-s1.log"));
            assertThat(log).as("the service's own /proc/<pid>/status")
                    .contains("probe: Uid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid);
            assertThat(log.lines().filter(l -> l.startsWith("probe: DENIED"))).hasSize(4);
            assertThat(log).doesNotContain("probe: WROTE").contains("jersey ready on");
            try (Stream<Path> files = Files.walk(results)) {
                assertThat(files.filter(f -> f.getFileName().toString().equals("forged.json"))).isEmpty();
            }
            assertThat(Files.readString(runDir.resolve("summary.md"))).doesNotContain("forged");

            JsonNode run = RunOutputs.validRunJson(runDir);
            assertThat(run.get("status").asText()).isEqualTo("ok");
            assertThat(run.get("cells")).hasSize(2); // read-heavy × (capacity, latency)
            for (JsonNode cell : run.get("cells")) {
                assertThat(cell.get("status").asText()).isEqualTo("ok");
                // The latency regime's few requests in a 2 s window may be below what /proc's ticks resolve
                // (WindowMetrics): no figure then, never a 0. Capacity keeps the core busy.
                if (cell.get("regime").asText().equals("capacity") || cell.at("/metrics").has("cpu_us_per_req")) {
                    assertThat(cell.at("/metrics/cpu_us_per_req/value").asDouble())
                            .as("CPU read from /proc of the service").isPositive();
                }
                assertThat(cell.at("/metrics/throughput/value").asDouble()).isPositive();
            }
            assertThat(Files.getAttribute(runDir.resolve("run.json"), "unix:uid"))
                    .isEqualTo((int) ThrowawayUser.uidOf(ProcessHandle.current().pid()));
            assertThat(throwaway.user().processes()).as("nothing of the user is left").isEmpty();
        }
    }
}
