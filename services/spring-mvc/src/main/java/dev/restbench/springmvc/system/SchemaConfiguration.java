package dev.restbench.springmvc.system;

import org.springframework.boot.flyway.autoconfigure.FlywayMigrationStrategy;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class SchemaConfiguration {

    /**
     * The schema belongs to shared/schema and is applied by the dataset tool; this service only checks that
     * the database carries exactly those migrations (startup fails otherwise) and never migrates it.
     */
    @Bean
    FlywayMigrationStrategy validateOnly() {
        return flyway -> flyway.validate();
    }
}
