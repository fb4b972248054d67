package dev.restbench.quarkus.metrics;

import dev.restbench.support.AllocationMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * What the shared meter set (docs/ARCHITECTURE.md, "Metrics") needs beyond Quarkus's own binders (JVM memory, GC,
 * threads, classes, processor, uptime, file descriptors; http.server.requests from its Vert.x binder with the
 * route template as uri). Quarkus applies MeterFilter beans to its registry and binds MeterBinder beans to it.
 */
@Singleton
public class Meters {

    public static final String HTTP_SERVER_REQUESTS = "http.server.requests";

    /**
     * A percentiles histogram on http.server.requests only, with Micrometer's default range (1 ms to 30 s), as every
     * variant publishes: the one histogram of the scrape.
     */
    @Produces
    @Singleton
    MeterFilter httpServerRequestsHistogram() {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getName().equals(HTTP_SERVER_REQUESTS)) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
                }
                return config;
            }
        };
    }

    /** jvm.allocation.bytes from bench-support; the bean holds it strongly (its function counter does not). */
    @Produces
    @Singleton
    MeterBinder allocation() {
        return new AllocationMetrics();
    }

    /** jvm.compilation.time, which Spring Boot and the jersey variant bind too. */
    @Produces
    @Singleton
    MeterBinder compilation() {
        return new JvmCompilationMetrics();
    }
}
