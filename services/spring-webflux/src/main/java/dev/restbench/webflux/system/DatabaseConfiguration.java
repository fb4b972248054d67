package dev.restbench.webflux.system;

import io.r2dbc.pool.ConnectionPool;
import io.r2dbc.pool.ConnectionPoolConfiguration;
import io.r2dbc.spi.ConnectionFactories;
import io.r2dbc.spi.ConnectionFactoryOptions;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.ApplicationRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import java.time.Duration;

/**
 * The R2DBC connection pool, built from the variables every variant reads (DB_URL as a JDBC URL, DB_USER,
 * DB_PASSWORD, DB_POOL_SIZE) instead of Boot's spring.r2dbc.* properties, which want an R2DBC URL. Boot's
 * R2DBC auto-configuration backs off for this bean; its DatabaseClient, health indicator and pool metrics use it.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseConfiguration {

    private static final Log log = LogFactory.getLog(DatabaseConfiguration.class);

    static final String JDBC_PREFIX = "jdbc:postgresql:";

    /** {@code jdbc:postgresql://host:port/db?params} → {@code r2dbc:postgresql://host:port/db?params}. */
    static String r2dbcUrl(String jdbcUrl) {
        if (!jdbcUrl.startsWith(JDBC_PREFIX)) {
            throw new IllegalArgumentException("DB_URL must be a JDBC URL " + JDBC_PREFIX + "//host:port/db, got "
                    + jdbcUrl);
        }
        return "r2dbc:postgresql:" + jdbcUrl.substring(JDBC_PREFIX.length());
    }

    /**
     * A fixed-size pool as in every variant: {@code initialSize = minIdle = maxSize = DB_POOL_SIZE}, no idle
     * eviction (HikariCP with minimumIdle = maximumPoolSize never retires idle connections either).
     */
    @Bean(destroyMethod = "dispose")
    ConnectionPool connectionFactory(@Value("${db.url:jdbc:postgresql://127.0.0.1:54329/bench}") String url,
            @Value("${db.user:postgres}") String user, @Value("${db.password:postgres}") String password,
            @Value("${db.pool.size:16}") int poolSize) {
        if (poolSize < 1) {
            throw new IllegalArgumentException("DB_POOL_SIZE must be >= 1, got " + poolSize);
        }
        ConnectionFactoryOptions options = ConnectionFactoryOptions.parse(r2dbcUrl(url)).mutate()
                .option(ConnectionFactoryOptions.USER, user)
                .option(ConnectionFactoryOptions.PASSWORD, password)
                .build();
        ConnectionPoolConfiguration configuration = ConnectionPoolConfiguration
                .builder(ConnectionFactories.get(options))
                .name("r2dbc")
                .initialSize(poolSize)
                .minIdle(poolSize)
                .maxSize(poolSize)
                .maxIdleTime(Duration.ofMillis(-1))
                .build();
        return new ConnectionPool(configuration);
    }

    /**
     * Opens the pool's connections at start-up (as HikariCP does for its minimumIdle), without blocking: a database
     * that is not reachable yet only makes the health endpoint answer 503 until it is.
     */
    @Bean
    ApplicationRunner warmUpPool(ConnectionPool pool) {
        return arguments -> pool.warmup().subscribe(
                opened -> log.info("R2DBC pool: " + opened + " connection(s) opened"),
                error -> log.warn("R2DBC pool warm-up failed: " + error));
    }
}
