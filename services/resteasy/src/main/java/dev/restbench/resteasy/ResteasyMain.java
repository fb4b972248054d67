package dev.restbench.resteasy;

import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.support.FaultInjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Entry point of resteasy.jar: the same environment as jersey (see docs/ARCHITECTURE.md). */
public final class ResteasyMain {

    private static final Logger LOG = LoggerFactory.getLogger(ResteasyMain.class);

    private ResteasyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServiceConfig config;
        FaultInjection faults;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
        } catch (IllegalArgumentException e) {
            System.err.println("resteasy: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        ResteasyApp app;
        try {
            app = ResteasyApp.start(config, faults);
        } catch (StartupException e) {
            System.err.println("resteasy: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        LOG.info("resteasy ready on http://{}:{}/ (database {}, pool {}, http threads {} (io threads {}), max body {}"
                        + " bytes{})",
                config.bindAddress(), app.port(), config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                app.ioThreads(), config.maxBodyBytes(), faults.enabled() ? ", " + faults.describe() : "");
        Thread.currentThread().join();
    }
}
