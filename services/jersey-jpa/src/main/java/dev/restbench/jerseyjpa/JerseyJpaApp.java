package dev.restbench.jerseyjpa;

import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.http.FaultInjectionHandler;
import dev.restbench.jersey.http.IgnoreH2cUpgrade;
import dev.restbench.jersey.http.NotHttpPreamble;
import dev.restbench.jersey.http.ProblemErrorPages;
import dev.restbench.jersey.http.RequestBodyFraming;
import dev.restbench.jersey.http.WellFormedUriHandler;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.jerseyjpa.data.JpaDatabase;
import dev.restbench.support.FaultInjection;
import jakarta.persistence.EntityManagerFactory;
import java.io.IOException;
import java.net.URI;
import java.util.Map;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ContainerFactory;

/**
 * A running service: the persistence unit (and with it the pool), schema checks, Grizzly with Jersey. The Grizzly
 * set-up is jersey's JerseyApp's, statement for statement (keep the two in step). {@link #close()} stops it all.
 */
public final class JerseyJpaApp implements AutoCloseable {

    /** Threads kept even when idle, like Tomcat's default minimum of spare threads. */
    private static final int CORE_WORKER_THREADS = 10;

    /** Idle keep-alive timeout, the same in every variant (Tomcat's default; Grizzly's is 30 s). */
    private static final int KEEP_ALIVE_IDLE_SECONDS = 60;

    private final HttpServer server;
    private final JpaDatabase database;
    private final ServiceMetrics metrics;

    private JerseyJpaApp(HttpServer server, JpaDatabase database, ServiceMetrics metrics) {
        this.server = server;
        this.database = database;
        this.metrics = metrics;
    }

    /** Starts the service or throws {@link StartupException} saying what is wrong. */
    public static JerseyJpaApp start(ServiceConfig config, FaultInjection faults) {
        return start(config, faults, Map.of());
    }

    /** As {@link #start(ServiceConfig, FaultInjection)}, with more Hibernate settings (tests: statistics). */
    public static JerseyJpaApp start(ServiceConfig config, FaultInjection faults, Map<String, Object> hibernate) {
        ServiceMetrics metrics = new ServiceMetrics();
        JpaDatabase database;
        try {
            database = JpaDatabase.open(config, metrics.registry(), hibernate);
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        try {
            JpaApiApplication application = new JpaApiApplication(config, database, metrics);
            URI uri = URI.create("http://" + hostForUri(config.bindAddress()) + ":" + config.port() + "/");
            GrizzlyHttpContainer jersey = ContainerFactory.createContainer(GrizzlyHttpContainer.class, application);
            HttpServer server = GrizzlyHttpServerFactory.createHttpServer(uri, false);
            HttpHandler handler = new WellFormedUriHandler(jersey);
            if (faults.enabled()) {
                handler = new FaultInjectionHandler(handler, faults);
            }
            server.getServerConfiguration().addHttpHandler(handler, "/");
            NetworkListener listener = server.getListeners().iterator().next();
            listener.registerAddOn(new IgnoreH2cUpgrade());
            listener.registerAddOn(new RequestBodyFraming());
            listener.registerAddOn(new NotHttpPreamble());
            listener.setDefaultErrorPageGenerator(new ProblemErrorPages());
            // As in every variant: no limit on requests per connection (Grizzly closes after 256 by default), so a
            // load generator that reuses connections never pays a reconnect inside the measured latencies.
            listener.getKeepAlive().setMaxRequestsCount(-1);
            listener.getKeepAlive().setIdleTimeoutInSeconds(KEEP_ALIVE_IDLE_SECONDS);
            listener.getTransport().setWorkerThreadPoolConfig(ThreadPoolConfig.defaultConfig()
                    .setPoolName("http-worker")
                    .setCorePoolSize(Math.min(CORE_WORKER_THREADS, config.httpThreads()))
                    .setMaxPoolSize(config.httpThreads()));
            try {
                server.start();
            } catch (IOException e) {
                throw new StartupException("cannot listen on " + config.bindAddress() + ":" + config.port()
                        + ": " + e.getMessage(), e);
            }
            metrics.markReady();
            return new JerseyJpaApp(server, database, metrics);
        } catch (RuntimeException e) {
            database.close();
            metrics.close();
            throw e;
        }
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return server.getListeners().iterator().next().getPort();
    }

    /** For tests: Hibernate's statistics, when the settings turned them on. */
    EntityManagerFactory entityManagerFactory() {
        return database.entityManagerFactory();
    }

    @Override
    public void close() {
        server.shutdownNow();
        database.close();
        metrics.close();
    }

    private static String hostForUri(String address) {
        return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    }
}
