package dev.restbench.runner.run;

import dev.restbench.runner.isolation.ServiceUser;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A variant's AOT cache (JDK 25+, Project Leyden; the manifest's {@code aotCache}). Trained in a start that only
 * becomes ready and stops: {@code -XX:AOTCacheOutput} writes the cache at exit with the classes loaded and linked
 * up to readiness, which is what time to ready measures. Measured starts use it with {@code -XX:AOTMode=on}, so a
 * cache the JVM cannot use fails the start instead of silently running without it. As a {@link ServiceUser}, the
 * training JVM writes the cache into a directory of that user's, and the measured starts read the runner's copy of
 * it: no start can change the cache another start reads.
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
        train(training, cache, cache, log, healthTimeout, Optional.empty());
    }

    /**
     * @param written where the training's options make the JVM write the cache (the user's, with a service user)
     * @param cache   where it is afterwards: the runner's (the same path without a service user; with one, a copy
     *                that user can read and not write)
     */
    static void train(ServiceProcess.Launch training, Path written, Path cache, Path log, Duration healthTimeout,
                      Optional<ServiceUser> user) throws IOException, InterruptedException {
        if (user.isPresent()) {
            user.get().mkdirs(written.toAbsolutePath().getParent());
            user.get().remove(written);
        } else {
            Files.createDirectories(cache.toAbsolutePath().getParent());
        }
        Files.deleteIfExists(cache);
        ServiceProcess service = ServiceProcess.start(training, log, user);
        try {
            service.awaitHealthy(healthTimeout);
        } finally {
            service.stop(EXIT_GRACE);
        }
        if (user.isPresent()) {
            try {
                user.get().copyOut(written, cache);
                Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rw-r--r--"));
            } catch (IOException e) {
                throw new ServiceProcess.StartFailure("the AOT training start wrote no cache (" + e.getMessage()
                        + "; its log: " + log + ")");
            } finally {
                user.get().remove(written);
            }
        }
        if (!Files.isRegularFile(cache)) {
            throw new ServiceProcess.StartFailure("the AOT training start wrote no cache (its log: " + log + ")");
        }
    }
}
