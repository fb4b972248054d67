package dev.restbench.quarkus;

import dev.restbench.quarkus.config.ServiceConfig;
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
 * Entry point of quarkus-run.jar. Reads the settings of docs/ARCHITECTURE.md from the environment (exit 2 when one is
 * invalid), checks the database and its schema (exit 1 when unreachable or not migrated), hands the settings to
 * Quarkus as its runtime configuration, starts it, and once it listens prints the "ready" line every variant prints.
 */
@QuarkusMain
public class Main implements QuarkusApplication {

    private static final Logger LOG = Logger.getLogger(Main.class);

    /** Worker threads kept even when idle, like Tomcat's default minimum of spare threads (jersey does the same). */
    private static final int CORE_WORKER_THREADS = 10;

    @Inject
    ReadyTime readyTime;
    @Inject
    HttpServer httpServer;

    public static void main(String... args) {
        ServiceConfig config;
        FaultInjection faults;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("quarkus: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        try {
            SchemaCheck.verify(config);
        } catch (StartupException e) {
            System.err.println("quarkus: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        ServiceConfig.setCurrent(config);
        configureQuarkus(config);
        Quarkus.run(Main.class, args);
    }

    /**
     * The runtime configuration from the service settings, as system properties (which Quarkus reads at start-up
     * with the highest precedence of its default sources). Everything fixed at build time is in
     * application.properties.
     */
    static void configureQuarkus(ServiceConfig config) {
        set("quarkus.http.host", config.bindAddress());
        set("quarkus.http.port", Integer.toString(config.port()));
        set("quarkus.datasource.jdbc.url", config.dbUrl());
        set("quarkus.datasource.username", config.dbUser());
        set("quarkus.datasource.password", config.dbPassword());
        // A fixed-size pool, as in every variant.
        set("quarkus.datasource.jdbc.min-size", Integer.toString(config.dbPoolSize()));
        set("quarkus.datasource.jdbc.initial-size", Integer.toString(config.dbPoolSize()));
        set("quarkus.datasource.jdbc.max-size", Integer.toString(config.dbPoolSize()));
        // The worker pool that runs the blocking endpoints: HTTP_THREADS is its maximum.
        set("quarkus.thread-pool.max-threads", Integer.toString(config.httpThreads()));
        set("quarkus.thread-pool.core-threads", Integer.toString(Math.min(CORE_WORKER_THREADS, config.httpThreads())));
        set("quarkus.http.limits.max-body-size", Long.toString(config.maxBodyBytes()));
    }

    private static void set(String name, String value) {
        if (System.getProperty(name) == null) { // an explicit -Dquarkus.… still wins
            System.setProperty(name, value);
        }
    }

    @Override
    public int run(String... args) {
        ServiceConfig config = ServiceConfig.current();
        FaultInjection faults = FaultInjection.fromEnvironment();
        readyTime.markReady();
        int port = httpServer.getPort();
        LOG.infof("quarkus ready on http://%s:%d/ (database %s, pool %d, http threads %d, max body %d bytes%s)",
                config.bindAddress(), port, config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Quarkus.waitForExit();
        return 0;
    }
}
