package dev.restbench.quarkus.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/**
 * application.ready.time, the TimeGauge Spring Boot registers (application_ready_time_seconds): ms from JVM start
 * until the service listens with everything started, measured when Quarkus hands control to Main#run.
 */
@Singleton
public class ReadyTime {

    private final MeterRegistry registry;

    @Inject
    public ReadyTime(MeterRegistry registry) {
        this.registry = registry;
    }

    public void markReady() {
        long readyMillis = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        TimeGauge.builder("application.ready.time", () -> readyMillis, TimeUnit.MILLISECONDS)
                .description("Time from JVM start until the service was ready to serve requests")
                .register(registry);
    }
}
