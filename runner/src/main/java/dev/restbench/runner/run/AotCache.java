package dev.restbench.runner.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A variant's AOT cache (JDK 25+, Project Leyden; the manifest's {@code aotCache}). Trained in a start that only
 * becomes ready and stops: {@code -XX:AOTCacheOutput} writes the cache at exit with the classes loaded and linked
 * up to readiness, which is what time to ready measures. Measured starts use it with {@code -XX:AOTMode=on}, so a
 * cache the JVM cannot use fails the start instead of silently running without it.
 */
final class AotCache {

    /** Long enough for a JVM to write its cache at exit (6 s for jersey, 31 s for Spring MVC on this box). */
    static final Duration EXIT_GRACE = Duration.ofSeconds(180);

    private AotCache() {
    }

    static List<String> trainingOptions(Path cache) {
        return List.of("-XX:AOTCacheOutput=" + cache.toAbsolutePath());
    }

    static List<String> useOptions(Path cache) {
        return List.of("-XX:AOTMode=on", "-XX:AOTCache=" + cache.toAbsolutePath());
    }

    /** Starts the training launch, waits until it is healthy, stops it and checks the cache is there. */
    static void train(ServiceProcess.Launch training, Path cache, Path log, Duration healthTimeout)
            throws IOException, InterruptedException {
        Files.createDirectories(cache.toAbsolutePath().getParent());
        Files.deleteIfExists(cache);
        ServiceProcess service = ServiceProcess.start(training, log);
        try {
            service.awaitHealthy(healthTimeout);
        } finally {
            service.stop(EXIT_GRACE);
        }
        if (!Files.isRegularFile(cache)) {
            throw new ServiceProcess.StartFailure("the AOT training start wrote no cache (its log: " + log + ")");
        }
    }
}
