package dev.restbench.springmvc.system;

import org.springframework.boot.autoconfigure.flyway.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stands in for services/spring-mvc's {@code system/SchemaConfiguration.java}: the same bean, from Boot 3.5's package
 * ({@code FlywayMigrationStrategy} moved to {@code org.springframework.boot.flyway.autoconfigure} in Boot 4).
 */
@Configuration(proxyBeanMethods = false)
class SchemaConfiguration {

    /** Flyway only checks that the database carries exactly shared/schema's migrations; it never migrates. */
    @Bean
    FlywayMigrationStrategy validateOnly() {
        return flyway -> flyway.validate();
    }
}
