package dev.restbench.jersey.metrics;

import dev.restbench.support.AllocationMetrics;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmCompilationMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.concurrent.TimeUnit;

/** The meters of docs/ARCHITECTURE.md ("Metrics"), with the names Spring Boot's actuator gives them. */
public final class ServiceMetrics implements AutoCloseable {

    public static final String HTTP_SERVER_REQUESTS = "http.server.requests";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();
    /** Held here because a function counter references its source only weakly: once collected, it reads NaN. */
    private final AllocationMetrics allocationMetrics = new AllocationMetrics();

    public ServiceMetrics() {
        // Must be in place before the first request timer is created. Default bucket range, as Spring Boot's
        // management.metrics.distribution.percentiles-histogram.http.server.requests=true gives.
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (id.getName().equals(HTTP_SERVER_REQUESTS)) {
                    return DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config);
                }
                return config;
            }
        });
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new JvmCompilationMetrics().bindTo(registry); // Spring Boot binds it too: the same meters in every variant
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        allocationMetrics.bindTo(registry);
    }

    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Records now as the moment the service became ready; the gauge reads in ms since JVM start. */
    public void markReady() {
        long readyMillis = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        TimeGauge.builder("application.ready.time", () -> readyMillis, TimeUnit.MILLISECONDS)
                .description("Time from JVM start until the service was ready to serve requests")
                .register(registry);
    }

    @Override
    public void close() {
        gcMetrics.close();
        registry.close();
    }
}
