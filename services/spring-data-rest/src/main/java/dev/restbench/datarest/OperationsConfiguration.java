package dev.restbench.datarest;

import dev.restbench.spring.ProblemReportValve;

import dev.restbench.datarest.web.RequestBodyLimitFilter;
import dev.restbench.support.AllocationMetrics;
import dev.restbench.support.FaultInjection;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.endpoint.ApiVersion;
import org.springframework.boot.actuate.endpoint.web.EndpointMediaTypes;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import java.util.List;

/** What every variant shares around the API: schema check, body limit, allocation meter, the drill's fault. */
@Configuration(proxyBeanMethods = false)
public class OperationsConfiguration {

    /** The schema belongs to shared/schema: check that the database has exactly it, never migrate. */
    @Bean
    FlywayMigrationStrategy validateSchemaOnly() {
        return flyway -> flyway.validate();
    }

    @Bean
    FilterRegistrationBean<RequestBodyLimitFilter> requestBodyLimitFilter(
            @Value("${restbench.max-body-bytes}") long maxBodyBytes) {
        FilterRegistrationBean<RequestBodyLimitFilter> registration =
                new FilterRegistrationBean<>(new RequestBodyLimitFilter(maxBodyBytes));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }

    @Bean
    AllocationMetrics allocationMetrics() {
        return new AllocationMetrics();
    }

    /** Registered with the servlet container only when FAULT_CPU_PERCENT &gt; 0: a normal run carries no trace. */
    @Bean
    FilterRegistrationBean<FaultInjectionFilter> faultInjectionFilter() {
        FaultInjection faultInjection = FaultInjection.fromEnvironment();
        FilterRegistrationBean<FaultInjectionFilter> registration =
                new FilterRegistrationBean<>(new FaultInjectionFilter(faultInjection));
        registration.setEnabled(faultInjection.enabled());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Problem details also for what Tomcat refuses itself, instead of its HTML page (see ProblemReportValve). */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve() {
        return factory -> factory.addContextCustomizers(context -> {
            if (!(context.getParent() instanceof StandardHost host)) {
                throw new IllegalStateException("expected the Tomcat context inside a StandardHost");
            }
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
        });
    }

    /**
     * {@code /actuator/health} answers {@code application/json} unless asked for Spring's versioned types, as the
     * operations endpoints of every variant do (Spring's default for {@code Accept: *}{@code /*} is
     * {@code application/vnd.spring-boot.actuator.v3+json}).
     */
    @Bean
    EndpointMediaTypes endpointMediaTypes() {
        List<String> types = List.of("application/json", ApiVersion.V3.getProducedMimeType().toString(),
                ApiVersion.V2.getProducedMimeType().toString());
        return new EndpointMediaTypes(types, types);
    }
}
