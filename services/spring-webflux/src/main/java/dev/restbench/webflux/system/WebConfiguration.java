package dev.restbench.webflux.system;

import dev.restbench.support.FaultInjection;
import dev.restbench.webflux.web.BodySizeLimitFilter;
import dev.restbench.webflux.web.ConnectMethodFilter;
import dev.restbench.webflux.web.EventLoopAffinityFilter;
import dev.restbench.webflux.web.ProblemExceptionHandler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.server.WebFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * The web filters and the problem-detail exception handler. WebFlux observes the whole exchange
 * (http.server.requests is recorded around the filter chain and the exception handlers), so refused bodies and
 * injected CPU count in it like any other request time, as in spring-mvc.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration {

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    EventLoopAffinityFilter eventLoopAffinityFilter() {
        return new EventLoopAffinityFilter();
    }

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 1)
    ConnectMethodFilter connectMethodFilter() {
        return new ConnectMethodFilter();
    }

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 3)
    BodySizeLimitFilter bodySizeLimitFilter(@Value("${max.body.bytes:65536}") long maxBodyBytes) {
        return new BodySizeLimitFilter(maxBodyBytes);
    }

    /** A filter only when FAULT_CPU_PERCENT or FAULT_ALLOC_PERCENT is above 0: the drill. */
    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE + 2)
    WebFilter faultInjectionFilter() {
        FaultInjection fault = FaultInjection.fromEnvironment();
        return fault.enabled() ? new FaultInjectionFilter(fault) : (exchange, chain) -> chain.filter(exchange);
    }

    @Bean
    ProblemExceptionHandler problemExceptionHandler(ObjectProvider<JsonMapper> json) {
        return new ProblemExceptionHandler(json.getIfAvailable(() -> JsonMapper.builder().build()));
    }
}
