package dev.restbench.datarest;

import dev.restbench.datarest.web.RequestBodyLimitFilter;
import dev.restbench.support.AllocationMetrics;
import dev.restbench.support.FaultInjection;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

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
}
