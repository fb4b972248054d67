package dev.restbench.runner.run;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A variant that already runs somewhere (the compose stack, another host): the runner neither starts nor stops it
 * and cannot read its /proc, so its CPU time comes from its own metrics (see {@link WindowMetrics}) and it has no
 * startup measurements.
 */
final class ServiceEndpoint implements ServiceUnderTest {
    private final String baseUrl;
    private final String healthPath;
    private final String metricsPath;

    /** @param baseUrl without a trailing slash (RunOptions strips it) */
    ServiceEndpoint(String baseUrl, String healthPath, String metricsPath) {
        this.baseUrl = baseUrl;
        this.healthPath = healthPath;
        this.metricsPath = metricsPath;
    }

    /** Waits until the health check answers 200; a service that is down is the step's failure, not a wait. */
    void awaitHealthy(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!ServiceHttp.healthy(baseUrl, healthPath)) {
            if (System.nanoTime() > deadline) {
                throw new ServiceProcess.StartFailure("not healthy after " + timeout.toSeconds() + " s (GET "
                        + baseUrl + healthPath + " never answered 200)");
            }
            Thread.sleep(200);
        }
    }

    @Override
    public java.util.Set<String> harnessPaths() {
        return java.util.Set.of(healthPath, metricsPath);
    }

    @Override
    public String baseUrl() {
        return baseUrl;
    }

    @Override
    public PrometheusText scrape() throws IOException, InterruptedException {
        return ServiceHttp.scrape(baseUrl, metricsPath);
    }

    @Override
    public boolean isAlive() {
        try {
            return ServiceHttp.healthy(baseUrl, healthPath);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String deathReason(String when) {
        return "GET " + baseUrl + healthPath + " stopped answering 200 " + when;
    }

    @Override
    public boolean procCpu() {
        return false;
    }

    @Override
    public OptionalLong cpuMicros() {
        return OptionalLong.empty();
    }

    @Override
    public Map<Long, Long> jitThreadCpuMicros() {
        return Map.of();
    }
}
