package dev.restbench.jersey;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.DataAccess;
import dev.restbench.jersey.data.Database;
import dev.restbench.support.FaultInjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of jersey.jar: configuration from the environment (see docs/ARCHITECTURE.md). */
public final class JerseyMain {

    private static final Logger LOG = LoggerFactory.getLogger(JerseyMain.class);

    private JerseyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        run("jersey", Database::open);
    }

    /**
     * Starts the service on the data access {@code opener} opens, with {@code name} in what it prints (jersey-jpa's
     * main calls this with its JPA one), and keeps it running: exit 2 on bad settings, 1 when it cannot start.
     */
    public static void run(String name, DataAccess.Opener opener) throws InterruptedException {
        ServiceConfig config;
        FaultInjection faults;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println(name + ": invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        JerseyApp app;
        try {
            app = JerseyApp.start(config, faults, opener);
        } catch (StartupException e) {
            System.err.println(name + ": cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        LOG.info("{} ready on http://{}:{}/ (database {}, pool {}, http threads {}, max body {} bytes{})",
                name, config.bindAddress(), app.port(), config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Thread.currentThread().join();
    }
}
