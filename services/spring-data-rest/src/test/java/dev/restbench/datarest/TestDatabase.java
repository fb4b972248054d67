package dev.restbench.datarest;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One real embedded PostgreSQL for the test JVM, holding a fresh copy of the small dataset. Started on first use;
 * stopped by the embedded server's JVM shutdown hook (the Spring test context outlives any test class).
 */
final class TestDatabase {

    private static PostgresServer server;
    private static String jdbcUrl;

    private TestDatabase() {
    }

    static synchronized void register(DynamicPropertyRegistry registry) {
        if (server == null) {
            server = PostgresServer.embedded(0, false);
            server.ensureTemplate("catalog_small", DatasetSpec.SMALL);
            jdbcUrl = server.createDatabaseFromTemplate("catalog_small", "sdr_test");
        }
        registry.add("spring.datasource.url", () -> jdbcUrl);
        registry.add("spring.datasource.username", server::user);
        registry.add("spring.datasource.password", server::password);
    }
}
