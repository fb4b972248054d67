package dev.restbench.jersey;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.support.FaultInjection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Entry point of jersey-jetty.jar: the same environment as jersey, plus HTTP_VIRTUAL_THREADS=true to run requests on
 * virtual threads (the jersey-jetty-virtual entry).
 */
public final class JettyJerseyMain {

    private static final Logger LOG = LoggerFactory.getLogger(JettyJerseyMain.class);

    private JettyJerseyMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        ServiceConfig config;
        FaultInjection faults;
        boolean virtualThreads;
        try {
            config = ServiceConfig.fromEnvironment();
            faults = FaultInjection.fromEnvironment();
            virtualThreads = parseFlag("HTTP_VIRTUAL_THREADS", System.getenv("HTTP_VIRTUAL_THREADS"));
        } catch (IllegalArgumentException e) {
            System.err.println("jersey-jetty: invalid configuration: " + e.getMessage());
            System.exit(2);
            return;
        }
        JettyJerseyApp app;
        try {
            app = JettyJerseyApp.start(config, faults, virtualThreads);
        } catch (StartupException e) {
            System.err.println("jersey-jetty: cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(app::close, "shutdown"));
        LOG.info("jersey-jetty ready on http://{}:{}/ (database {}, pool {}, http threads {}{}{})",
                config.bindAddress(), app.port(), config.dbUrl(), config.dbPoolSize(), config.httpThreads(),
                virtualThreads ? ", requests on virtual threads" : "", faults.enabled() ? ", " + faults.describe() : "");
        Thread.currentThread().join();
    }

    private static boolean parseFlag(String name, String value) {
        if (value == null || value.isBlank() || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw new IllegalArgumentException(name + " must be true or false, not '" + value + "'");
    }
}
