package dev.restbench.quarkus.data;

import dev.restbench.quarkus.StartupException;
import dev.restbench.quarkus.config.ServiceConfig;
import java.sql.Connection;
import java.sql.SQLException;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Before Quarkus starts: is PostgreSQL reachable, and does the database hold exactly the bench-schema migrations
 * (Flyway validate; the service never migrates, shared/dataset creates the schema)? One unpooled connection, closed
 * again, so a service that could only answer errors never starts listening.
 */
public final class SchemaCheck {

    private SchemaCheck() {
    }

    public static void verify(ServiceConfig config) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        try {
            dataSource.setURL(config.dbUrl());
        } catch (IllegalArgumentException e) {
            throw new StartupException("DB_URL is not a PostgreSQL JDBC URL: " + config.dbUrl(), e);
        }
        dataSource.setUser(config.dbUser());
        dataSource.setPassword(config.dbPassword());
        try (Connection connection = dataSource.getConnection()) {
            connection.isValid(2);
        } catch (SQLException e) {
            throw new StartupException("cannot connect to PostgreSQL at " + config.dbUrl() + " as user '"
                    + config.dbUser() + "': " + e.getMessage()
                    + " (start one with `./bench db` or set DB_URL, DB_USER, DB_PASSWORD)", e);
        }
        try {
            Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load().validate();
        } catch (FlywayException e) {
            throw new StartupException("the database at " + config.dbUrl()
                    + " does not hold the bench-schema migrations (it must be created by shared/dataset, e.g."
                    + " `./bench db`): " + e.getMessage().strip(), e);
        }
    }
}
