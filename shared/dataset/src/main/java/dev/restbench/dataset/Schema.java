package dev.restbench.dataset;

import org.flywaydb.core.Flyway;

/** Applies the one schema (classpath:db/migration from bench-schema). Only the dataset tool migrates. */
public final class Schema {

    private Schema() {
    }

    public static int migrate(String jdbcUrl, String user, String password) {
        return Flyway.configure()
                .dataSource(jdbcUrl, user, password)
                .locations("classpath:db/migration")
                .load()
                .migrate()
                .migrationsExecuted;
    }
}
