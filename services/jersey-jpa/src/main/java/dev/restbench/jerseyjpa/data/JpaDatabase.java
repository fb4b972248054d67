package dev.restbench.jerseyjpa.data;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.metrics.micrometer.MicrometerMetricsTrackerFactory;
import com.zaxxer.hikari.pool.HikariPool;
import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.DataAccess;
import dev.restbench.jersey.data.Database;
import dev.restbench.springmvc.category.Category;
import dev.restbench.springmvc.item.Item;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.PersistenceConfiguration;
import jakarta.persistence.SchemaValidationException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.hibernate.engine.jdbc.connections.spi.ConnectionProvider;
import org.hibernate.engine.spi.SessionFactoryImplementor;

/**
 * The persistence unit: Hibernate ORM bootstrapped programmatically through the JPA API (no persistence.xml, no
 * classpath scanning), with HikariCP as Hibernate's connection provider. The settings are those Spring Boot gives
 * spring-mvc's Hibernate (see the README), so the two variants differ in the framework around the ORM only.
 * {@link #dataAccess()} is what jersey's application (compiled here unchanged) is started on.
 */
public final class JpaDatabase implements AutoCloseable {

    private final EntityManagerFactory entityManagerFactory;
    private final HikariDataSource dataSource;

    private JpaDatabase(EntityManagerFactory entityManagerFactory, HikariDataSource dataSource) {
        this.entityManagerFactory = entityManagerFactory;
        this.dataSource = dataSource;
    }

    /** The persistence unit with the service's settings, as jersey's {@link DataAccess.Opener} (JerseyJpaMain). */
    public static DataAccess openDataAccess(ServiceConfig config, MeterRegistry registry) {
        return open(config, registry, Map.of()).dataAccess();
    }

    /** The settings of the persistence unit for this configuration, before any extra ones. */
    static Map<String, Object> settings(ServiceConfig config) {
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put(PersistenceConfiguration.JDBC_URL, config.dbUrl());
        settings.put(PersistenceConfiguration.JDBC_USER, config.dbUser());
        settings.put(PersistenceConfiguration.JDBC_PASSWORD, config.dbPassword());
        // HikariCP as Hibernate's connection provider (hibernate-hikaricp); a fixed-size pool as in every variant.
        settings.put("hibernate.connection.provider_class", "hikaricp");
        settings.put("hibernate.hikari.maximumPoolSize", config.dbPoolSize());
        settings.put("hibernate.hikari.minimumIdle", config.dbPoolSize());
        // Every access runs in a transaction, so connections leave the pool with auto-commit off and Hibernate
        // neither checks nor switches it per transaction (spring-mvc's hikari.auto-commit=false and this setting).
        settings.put("hibernate.hikari.autoCommit", false);
        settings.put("hibernate.connection.provider_disables_autocommit", true);
        // Spring's HibernateJpaVendorAdapter sets this: the session holds its connection until it closes.
        settings.put("hibernate.connection.handling_mode", "DELAYED_ACQUISITION_AND_HOLD");
        // The schema is bench-schema's: validated at startup (Flyway, then the mapping), never created or altered.
        settings.put(PersistenceConfiguration.SCHEMAGEN_DATABASE_ACTION, "none");
        // Validation runs once, on the requests (RequestValidator); the entities carry no constraints.
        settings.put("jakarta.persistence.validation.mode", "none");
        return settings;
    }

    /**
     * Builds the EntityManagerFactory (which opens the pool), then checks that the database holds exactly the
     * bench-schema migrations (Flyway validate, as jersey) and that the mapping fits it (as spring-mvc's
     * {@code ddl-auto=validate}). Throws {@link StartupException} saying what is wrong.
     *
     * @param extraSettings more Hibernate settings (tests turn statistics on)
     */
    public static JpaDatabase open(ServiceConfig config, MeterRegistry registry, Map<String, Object> extraSettings) {
        PersistenceConfiguration unit = new PersistenceConfiguration("jersey-jpa")
                .managedClass(Category.class)
                .managedClass(Item.class)
                .properties(settings(config))
                .properties(extraSettings);
        EntityManagerFactory entityManagerFactory;
        try {
            entityManagerFactory = unit.createEntityManagerFactory();
        } catch (RuntimeException e) {
            if (causedBy(e, HikariPool.PoolInitializationException.class)) {
                throw new StartupException("cannot connect to PostgreSQL at " + config.dbUrl() + " as user '"
                        + config.dbUser() + "': " + rootMessage(e)
                        + " (start one with `./bench db` or set DB_URL, DB_USER, DB_PASSWORD)", e);
            }
            throw new StartupException("Hibernate cannot start: " + rootMessage(e), e);
        }
        try {
            HikariDataSource dataSource = entityManagerFactory.unwrap(SessionFactoryImplementor.class)
                    .getServiceRegistry().requireService(ConnectionProvider.class).unwrap(HikariDataSource.class);
            // Hibernate builds the pool from its settings, which carry no objects: the meters are bound now. HikariCP
            // allows it once on a running pool; the gauges read the pool's state from here on.
            dataSource.setMetricsTrackerFactory(new MicrometerMetricsTrackerFactory(registry));
            Database.validateSchema(dataSource);
            try {
                entityManagerFactory.getSchemaManager().validate();
            } catch (SchemaValidationException e) {
                throw new StartupException("the database at " + config.dbUrl()
                        + " does not match the JPA mapping: " + e.getMessage(), e);
            }
            return new JpaDatabase(entityManagerFactory, dataSource);
        } catch (RuntimeException e) {
            entityManagerFactory.close();
            throw e;
        }
    }

    /** For tests: Hibernate's statistics, when the settings turned them on. */
    public EntityManagerFactory entityManagerFactory() {
        return entityManagerFactory;
    }

    /**
     * jersey's resources' stores over this unit (one transaction per call, {@link Transactions}) in place of the JDBC
     * repositories, the pool Hibernate opened for the health check; closing it closes this unit.
     */
    public DataAccess dataAccess() {
        Transactions transactions = new Transactions(entityManagerFactory);
        return new DataAccess(new JpaItemStore(transactions), new JpaCategoryStore(transactions), dataSource,
                this::close);
    }

    /** The pool Hibernate opened (health checks and meters use it; the API goes through Hibernate). */
    public HikariDataSource dataSource() {
        return dataSource;
    }

    /** Closes the EntityManagerFactory, and with it the pool. */
    @Override
    public void close() {
        entityManagerFactory.close();
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (type.isInstance(cause)) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
