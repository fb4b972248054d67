package dev.restbench.jersey.data;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.plain.data.CategoryStore;
import dev.restbench.plain.data.ItemStore;
import io.micrometer.core.instrument.MeterRegistry;
import javax.sql.DataSource;

/**
 * What the application is given to read and write through: the stores its resources call, the pool the health check
 * validates, and what closes them. jersey's is {@link Database#open} (bench-plain-jdbc's JDBC repositories on
 * HikariCP); jersey-jpa compiles this application again (resources, {@code ApiApplication}, {@code JerseyApp},
 * {@code JerseyMain}) and starts it with an {@link Opener} of its JPA stores.
 *
 * @param dataSource the connection pool, which {@code /actuator/health} validates a connection of
 * @param onClose    closes the pool (and whatever else was opened with it)
 */
public record DataAccess(ItemStore items, CategoryStore categories, DataSource dataSource, Runnable onClose)
        implements AutoCloseable {

    @Override
    public void close() {
        onClose.run();
    }

    /** Opens the data access for a configuration, its pool's meters in {@code registry}. */
    @FunctionalInterface
    public interface Opener {

        /**
         * Connects, checks the schema, and returns the data access; throws
         * {@link dev.restbench.jersey.StartupException} saying what is wrong (having closed what it opened).
         */
        DataAccess open(ServiceConfig config, MeterRegistry registry);
    }
}
