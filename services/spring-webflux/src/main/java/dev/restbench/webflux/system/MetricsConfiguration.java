package dev.restbench.webflux.system;

import dev.restbench.support.AllocationMetrics;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.util.List;

@Configuration(proxyBeanMethods = false)
class MetricsConfiguration {

    /** jvm.allocation.bytes, the exact allocation counter every variant publishes (bench-support). */
    @Bean
    AllocationMetrics allocationMetrics() {
        return new AllocationMetrics();
    }

    /**
     * {@code /actuator/health} answers {@code application/json} unless asked for Spring's versioned types, as the
     * operations endpoints of every variant do (as in spring-mvc's MetricsConfiguration).
     */
    @Bean
    EndpointMediaTypes endpointMediaTypes() {
        List<String> types = List.of("application/json", ApiVersion.V3.getProducedMimeType().toString(),
                ApiVersion.V2.getProducedMimeType().toString());
        return new EndpointMediaTypes(types, types);
    }
}
