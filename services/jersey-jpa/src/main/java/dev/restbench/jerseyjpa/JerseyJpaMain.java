package dev.restbench.jerseyjpa;

import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.support.FaultInjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of jersey-jpa.jar: configuration from the environment (see docs/ARCHITECTURE.md), as jersey's. */
public final class JerseyJpaMain {

    private static final Logger LOG = LoggerFactory.getLogger(JerseyJpaMain.class);

    private JerseyJpaMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServiceConfig config;
        FaultInjection faults;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("jersey-jpa: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        JerseyJpaApp app;
        try {
            app = JerseyJpaApp.start(config, faults);
        } catch (StartupException e) {
            System.err.println("jersey-jpa: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        LOG.info("jersey-jpa ready on http://{}:{}/ (database {}, pool {}, http threads {}, max body {} bytes{})",
                config.bindAddress(), app.port(), config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Thread.currentThread().join();
    }
}
