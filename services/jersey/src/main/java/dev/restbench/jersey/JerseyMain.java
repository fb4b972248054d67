package dev.restbench.jersey;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.support.FaultInjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of jersey.jar: configuration from the environment (see docs/ARCHITECTURE.md). */
public final class JerseyMain {

    private static final Logger LOG = LoggerFactory.getLogger(JerseyMain.class);

    private JerseyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServiceConfig config;
        FaultInjection faults;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("jersey: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        JerseyApp app;
        try {
            app = JerseyApp.start(config, faults);
        } catch (StartupException e) {
            System.err.println("jersey: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        LOG.info("jersey ready on http://{}:{}/ (database {}, pool {}, http threads {}, max body {} bytes{})",
                config.bindAddress(), app.port(), config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Thread.currentThread().join();
    }
}
