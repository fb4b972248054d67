package dev.restbench.springmvc.system;

import dev.restbench.support.AllocationMetrics;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    /** jvm.allocation.bytes, the exact allocation counter every variant publishes (bench-support). */
    @Bean
    AllocationMetrics allocationMetrics() {
        return new AllocationMetrics();
    }
}
