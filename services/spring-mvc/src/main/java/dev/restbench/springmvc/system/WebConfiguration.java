package dev.restbench.springmvc.system;

import dev.restbench.springmvc.web.BodySizeLimitFilter;
import dev.restbench.support.FaultInjection;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The servlet filters. Both run inside Spring's observation filter (order HIGHEST_PRECEDENCE + 1), so refused
 * bodies and injected CPU show up in http.server.requests like any other request time.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    @Bean
    FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimitFilter(
            @Value("${max.body.bytes:65536}") long maxBodyBytes, BodySizeLimitFilter.ProblemWriter json) {
        var registration = new FilterRegistrationBean<>(new BodySizeLimitFilter(maxBodyBytes, json));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 3);
        return registration;
    }

    /**
     * Registered with the servlet container only when FAULT_CPU_PERCENT or FAULT_ALLOC_PERCENT is above 0: the drill.
     */
    @Bean
    FilterRegistrationBean<FaultInjectionFilter> faultInjectionFilter() {
        FaultInjection fault = FaultInjection.fromEnvironment();
        var registration = new FilterRegistrationBean<>(new FaultInjectionFilter(fault));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 2);
        registration.setEnabled(fault.enabled());
        return registration;
    }
}
