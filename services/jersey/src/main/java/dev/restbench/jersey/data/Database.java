package dev.restbench.jersey.data;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.plain.data.CategoryRepository;
import dev.restbench.plain.data.ItemRepository;
import io.micrometer.core.instrument.MeterRegistry;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/** Opens the connection pool and checks that the database holds exactly the schema of bench-schema. */
public final class Database {

    private Database() {
    }

    /**
     * jersey's data access: bench-plain-jdbc's JDBC repositories (their statements, auto-commit) on the pool
     * ({@link #connect}), once the schema check ({@link #validateSchema}) passed.
     */
    public static DataAccess open(ServiceConfig config, MeterRegistry registry) {
        HikariDataSource dataSource = connect(config, registry);
        try {
            validateSchema(dataSource);
        } catch (RuntimeException e) {
            dataSource.close();
            throw e;
        }
        return new DataAccess(new ItemRepository(dataSource), new CategoryRepository(dataSource), dataSource,
                dataSource::close);
    }

    /**
     * A fixed-size pool (maximumPoolSize = minimumIdle), as in every variant. Fails at once when PostgreSQL cannot
     * be reached, rather than starting a service that answers every request with an error.
     */
    public static HikariDataSource connect(ServiceConfig config, MeterRegistry registry) {
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(config.dbUrl());
        hikari.setUsername(config.dbUser());
        hikari.setPassword(config.dbPassword());
        hikari.setMaximumPoolSize(config.dbPoolSize());
        hikari.setMinimumIdle(config.dbPoolSize());
        hikari.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
        try {
            return new HikariDataSource(hikari);
        } catch (RuntimeException e) {
            throw new StartupException("cannot connect to PostgreSQL at " + config.dbUrl() + " as user '"
                    + config.dbUser() + "': " + rootMessage(e)
                    + " (start one with `./bench db` or set DB_URL, DB_USER, DB_PASSWORD)", e);
        }
    }

    /** Flyway validate only: the service never creates or alters the schema (shared/dataset does). */
    public static void validateSchema(HikariDataSource dataSource) {
        Flyway flyway = Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load();
        try {
            flyway.validate();
        } catch (FlywayException e) {
            throw new StartupException("the database at " + dataSource.getJdbcUrl()
                    + " does not hold the bench-schema migrations (it must be created by shared/dataset, e.g."
                    + " `./bench db`): " + e.getMessage().strip(), e);
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
