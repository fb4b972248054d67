package dev.restbench.runner.run;

import com.sun.net.httpserver.HttpServer;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The AOT cache of a real JDK 25 process: a tiny HTTP service (this class's {@link Service}) trained until healthy,
 * stopped, and started again from the cache with -XX:AOTMode=on, which refuses to start on a cache it cannot use.
 */
class AotCacheTest {

    /** Health on /health, nothing else; exits on SIGTERM (the JVM then writes the cache). */
    public static final class Service {
        public static void main(String[] args) throws Exception {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(args[0])), 0);
            server.createContext("/health", exchange -> {
                byte[] body = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
                exchange.close();
            });
            server.start();
        }
    }

    private static Path jdk25() {
        try {
            return Runtimes.ofThisMachine().find(new Manifest.Runtime("jdk", 25)).executable();
        } catch (RuntimeException e) {
            Assumptions.abort("no JDK 25 on this machine: " + e.getMessage());
            return null;
        }
    }

    /** The service as a jar of its own: an AOT cache takes classes from jars only, not from class directories. */
    private static Path serviceJar(Path dir) throws Exception {
        Path jar = dir.resolve("service.jar");
        String entry = Service.class.getName().replace('.', '/') + ".class";
        try (var in = Service.class.getClassLoader().getResourceAsStream(entry);
             var out = new java.util.jar.JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new java.util.jar.JarEntry(entry));
            in.transferTo(out);
            out.closeEntry();
        }
        return jar;
    }

    private static ServiceProcess.Launch launch(Path java, Path jar, List<String> jvmOptions, int port) {
        List<String> argv = new ArrayList<>(List.of(java.toString()));
        argv.addAll(jvmOptions);
        argv.addAll(List.of("-cp", jar.toString(), Service.class.getName(), Integer.toString(port)));
        return new ServiceProcess.Launch(argv, Map.of(), port, null, "/health", "/health");
    }

    @Test
    void trainsACacheThatTheNextStartUsesAndRefusesOneItCannotUse(@TempDir Path dir) throws Exception {
        Path java = jdk25();
        Path jar = serviceJar(dir);
        Path cache = dir.resolve("aot/service.aot");
        int port = ServiceProcess.freePort();
        AotCache.train(launch(java, jar, AotCache.trainingOptions(cache), port), cache, dir.resolve("training.log"),
                Duration.ofSeconds(60));
        assertThat(cache).isRegularFile();
        assertThat(Files.size(cache)).isGreaterThan(1_000_000);

        try (ServiceProcess started = ServiceProcess.start(launch(java, jar, AotCache.useOptions(cache), port),
                dir.resolve("run.log"))) {
            assertThat(started.awaitHealthy(Duration.ofSeconds(60))).isPositive();
        }

        Files.writeString(cache, "not a cache");
        try (ServiceProcess broken = ServiceProcess.start(launch(java, jar, AotCache.useOptions(cache), port),
                dir.resolve("broken.log"))) {
            assertThatThrownBy(() -> broken.awaitHealthy(Duration.ofSeconds(60)))
                    .isInstanceOf(ServiceProcess.StartFailure.class);
        }
    }
}
