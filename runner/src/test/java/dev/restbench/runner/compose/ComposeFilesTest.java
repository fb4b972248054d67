package dev.restbench.runner.compose;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.manifest.Manifest;
import dev.restbench.runner.Bench;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.manifest.Manifests;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ComposeFilesTest {
    static final Path ROOT = Path.of(System.getProperty("restbench.root", "..")).toAbsolutePath().normalize();

    /** Fails while a variant was added, renamed or changed in benchmarks.json without `./bench compose`. */
    @Test
    void theCheckedInComposeFilesAreWhatTheManifestGives() throws Exception {
        Map<String, String> rendered = ComposeFiles.render(ROOT, Manifests.load(ROOT.resolve("benchmarks.json")));
        for (Map.Entry<String, String> file : rendered.entrySet()) {
            assertThat(Files.readString(ROOT.resolve(file.getKey())))
                    .as("%s is stale: run ./bench compose", file.getKey()).isEqualTo(file.getValue());
        }
    }

    /** `./bench compose --check` (what a fork's CI can run): exit 0 when current; exit 1, naming the file, when not. */
    @Test
    void checkComparesWithoutWriting(@TempDir Path tmp) throws Exception {
        Files.copy(ROOT.resolve("benchmarks.json"), tmp.resolve("benchmarks.json"));
        Files.createDirectories(tmp.resolve("compose/prometheus"));
        Files.copy(ROOT.resolve(ComposeFiles.COMPOSE), tmp.resolve(ComposeFiles.COMPOSE));
        Files.copy(ROOT.resolve(ComposeFiles.PROMETHEUS), tmp.resolve(ComposeFiles.PROMETHEUS));
        Manifest manifest = Manifests.load(ROOT.resolve("benchmarks.json"));
        for (Manifest.Variant variant : manifest.variants()) {
            Path dockerfile = ROOT.resolve(variant.folder()).resolve("Dockerfile");
            if (Files.isRegularFile(dockerfile)) {
                Files.createDirectories(tmp.resolve(variant.folder()));
                Files.copy(dockerfile, tmp.resolve(variant.folder()).resolve("Dockerfile"));
            }
        }

        Bench.Result current = Bench.run("compose", "--check", "--root=" + tmp);
        assertThat(current.exit()).as(current.err()).isZero();
        assertThat(current.out()).contains("up to date");

        String stale = Files.readString(tmp.resolve(ComposeFiles.PROMETHEUS)).replace("job_name: jersey\n",
                "job_name: jersey-renamed\n");
        assertThat(stale).contains("jersey-renamed");
        Files.writeString(tmp.resolve(ComposeFiles.PROMETHEUS), stale);
        Bench.Result check = Bench.run("compose", "--check", "--root=" + tmp);
        assertThat(check.exit()).isEqualTo(1);
        assertThat(check.err()).contains(ComposeFiles.PROMETHEUS).contains("run ./bench compose");
        assertThat(Files.readString(tmp.resolve(ComposeFiles.PROMETHEUS))).as("--check writes nothing").isEqualTo(stale);
    }

    @Test
    void aNativeExecutableIsItsOwnEntrypointAndHasNoRuntimeVersion(@TempDir Path tmp) throws Exception {
        ObjectNode json = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        ObjectNode entry = json.withArray("variants").addObject().put("name", "native-example")
                .put("folder", "services/native-example").put("artifact", "services/native-example/target/app")
                .put("dialect", "plain");
        entry.putObject("build").put("tool", "command").putArray("command").add("services/native-example/build.sh");
        entry.putArray("command").add("{artifact}").add("--port={port}");
        entry.putObject("runtime").put("name", "native");
        entry.putObject("classification").put("framework", "net-http").put("server", "net-http")
                .put("threading", "goroutine").put("language", "go").put("dataAccess", "pgx");
        Manifest manifest = Manifests.parse(Json.MAPPER.writeValueAsString(json), "test.json");
        Files.createDirectories(tmp.resolve("services/native-example"));
        Files.writeString(tmp.resolve("services/native-example/Dockerfile"), "FROM debian:bookworm-slim\n");

        String services = ComposeFiles.services(tmp, manifest);

        assertThat(services.substring(services.indexOf("  native-example:"))).startsWith("""
                  native-example:
                    <<: *variant
                    profiles: [services, native-example]
                    build:
                      context: ..
                      dockerfile: services/native-example/Dockerfile
                      args:
                        VARIANT: native-example
                    environment:
                      <<: *variant-env
                    entrypoint: ["sh", "-c", "exec /app/app --port=8080"]
                """);
    }

    @Test
    void everyVariantGetsAServiceAndAScrapeJobFromItsEntry(@TempDir Path tmp) throws Exception {
        ObjectNode json = (ObjectNode) Json.MAPPER.readTree(ROOT.resolve("benchmarks.json").toFile());
        // Host ports follow manifest order from 8081: the two entries added here come after the repository's (names no
        // real variant has, so the repository's own entries never collide with them).
        int firstPort = 8081 + json.withArray("variants").size();
        json.withArray("variants").addObject().put("name", "mvc-on-virtual").put("extends", "spring-mvc")
                .<ObjectNode>set("runtime", Json.MAPPER.createObjectNode().put("name", "jdk").put("version", 25))
                .putObject("env").put("SPRING_THREADS_VIRTUAL_ENABLED", "true");
        ObjectNode express = json.withArray("variants").addObject().put("name", "node-example").put("folder", "services/node-example")
                .put("artifact", "services/node-example").put("dialect", "plain").put("healthPath", "/health")
                .put("metricsPath", "/metrics");
        express.putObject("build").put("tool", "command").putArray("command").add("npm").add("ci");
        express.putArray("command").add("{node}").add("{artifact}/server.js");
        express.putObject("runtime").put("name", "node").put("version", 20);
        express.putObject("classification").put("framework", "express").put("server", "node")
                .put("threading", "event-loop").put("language", "javascript").put("dataAccess", "pg");
        Manifest manifest = Manifests.parse(Json.MAPPER.writeValueAsString(json), "test.json");
        Files.createDirectories(tmp.resolve("compose/prometheus"));
        Files.copy(ROOT.resolve(ComposeFiles.COMPOSE), tmp.resolve(ComposeFiles.COMPOSE));
        Files.createDirectories(tmp.resolve("services/node-example"));
        Files.writeString(tmp.resolve("services/node-example/Dockerfile"), "FROM node:20\n");

        Map<String, String> files = ComposeFiles.render(tmp, manifest);

        String compose = files.get(ComposeFiles.COMPOSE);
        assertThat(compose).contains("""
                  mvc-on-virtual:
                    <<: *variant
                    profiles: [services, mvc-on-virtual]
                    build:
                      context: ..
                      dockerfile: compose/variant.Dockerfile
                      args:
                        VARIANT: mvc-on-virtual
                        RUNTIME_VERSION: "25"
                    environment:
                      <<: *variant-env
                      SPRING_THREADS_VIRTUAL_ENABLED: "true"
                      JAVA_OPTS: "${JAVA_OPTS:--Xms512m -Xmx512m -XX:+UseG1GC}"
                    entrypoint: ["sh", "-c", "exec java $$JAVA_OPTS -jar /app/spring-mvc.jar"]
                    ports:
                      - "127.0.0.1:PORT:8080"
                """.replace("PORT", Integer.toString(firstPort)));
        assertThat(compose).contains("""
                  node-example:
                    <<: *variant
                    profiles: [services, node-example]
                    build:
                      context: ..
                      dockerfile: services/node-example/Dockerfile
                """).contains("""
                    entrypoint: ["sh", "-c", "exec node /app/node-example/server.js"]
                    healthcheck:
                      <<: *variant-health
                      test: ["CMD", "bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET /health HTTP/1.0\\\\r\\\\n\\\\r\\\\n' >&3 && grep -q UP <&3"]
                    ports:
                      - "127.0.0.1:PORT:8080"
                """.replace("PORT", Integer.toString(firstPort + 1)));
        assertThat(compose).doesNotContain("node-example:\n    <<: *variant\n    profiles: [services, node-example]\n    build:\n"
                + "      context: ..\n      dockerfile: services/node-example/Dockerfile\n      args:\n        VARIANT: node-example\n"
                + "        RUNTIME_VERSION: \"20\"\n    environment:\n      <<: *variant-env\n      JAVA_OPTS");
        assertThat(files.get(ComposeFiles.PROMETHEUS)).contains("""
                  - job_name: node-example
                    metrics_path: /metrics
                    static_configs: [{targets: ["node-example:8080"]}]
                """);
    }
}
