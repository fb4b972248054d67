package dev.restbench.quarkus;

import dev.restbench.quarkus.config.ServiceConfig;
import dev.restbench.quarkus.data.PoolWarmUp;
import dev.restbench.quarkus.data.SchemaCheck;
import dev.restbench.quarkus.metrics.ReadyTime;
import dev.restbench.support.FaultInjection;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.quarkus.vertx.http.HttpServer;
import jakarta.inject.Inject;
import org.jboss.logging.Logger;

/**
 * quarkus-reactive's entry point: services/quarkus's Main with the reactive pool's properties instead of Agroal's.
 * The same settings, checks and exit codes (2 invalid setting, 1 database unreachable or not migrated), then the
 * pool's DB_POOL_SIZE connections are opened before the "ready" line.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    private static final Logger LOG = Logger.getLogger(Main.class);

    /** As in quarkus: worker threads kept when idle (here they serve only health and metrics, never the API). */
    private static final int CORE_WORKER_THREADS = 10;

    @Inject
    ReadyTime readyTime;
    @Inject
    HttpServer httpServer;
    @Inject
    PoolWarmUp poolWarmUp;

    public static void main(String... args) {
        ServiceConfig config;
        try {
            config = ServiceConfig.fromEnvironment();
            FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("quarkus-reactive: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            SchemaCheck.verify(config);
        } catch (StartupException e) {
            System.err.println("quarkus-reactive: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        ServiceConfig.setCurrent(config);
        configureQuarkus(config);
        Quarkus.run(Main.class, args);
    }

    /** The runtime configuration from the settings, as system properties (an explicit -Dquarkus.… still wins). */
    static void configureQuarkus(ServiceConfig config) {
        set("quarkus.http.host", config.bindAddress());
        set("quarkus.http.port", Integer.toString(config.port()));
        set("quarkus.datasource.reactive.url", reactiveUrl(config.dbUrl()));
        set("quarkus.datasource.username", config.dbUser());
        set("quarkus.datasource.password", config.dbPassword());
        set("quarkus.datasource.reactive.max-size", Integer.toString(config.dbPoolSize()));
        set("quarkus.thread-pool.max-threads", Integer.toString(config.httpThreads()));
        set("quarkus.thread-pool.core-threads", Integer.toString(Math.min(CORE_WORKER_THREADS, config.httpThreads())));
        set("quarkus.http.limits.max-body-size", Long.toString(config.maxBodyBytes()));
    }

    /**
     * Every variant takes a JDBC URL (DB_URL); the reactive client takes the same URL without "jdbc:"
     * (postgresql://host:port/database?parameters). SchemaCheck has already connected with the JDBC form.
     */
    static String reactiveUrl(String jdbcUrl) {
        String prefix = "jdbc:";
        return jdbcUrl.startsWith(prefix) ? jdbcUrl.substring(prefix.length()) : jdbcUrl;
    }

    private static void set(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    @Override
    public int run(String... args) {
        ServiceConfig config = ServiceConfig.current();
        FaultInjection faults = FaultInjection.fromEnvironment();
        poolWarmUp.openAll(config.dbPoolSize());
        readyTime.markReady();
        LOG.infof("quarkus-reactive ready on http://%s:%d/ (database %s, pool %d, max body %d bytes%s)",
                config.bindAddress(), httpServer.getPort(), config.dbUrl(), config.dbPoolSize(),
                config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Quarkus.waitForExit();
        return 0;
    }
}
