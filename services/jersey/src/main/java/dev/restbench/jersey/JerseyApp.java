package dev.restbench.jersey;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.DataAccess;
import dev.restbench.jersey.data.Database;
import dev.restbench.jersey.http.FaultInjectionHandler;
import dev.restbench.jersey.http.IgnoreH2cUpgrade;
import dev.restbench.jersey.http.ProblemErrorPages;
import dev.restbench.jersey.http.NotHttpPreamble;
import dev.restbench.jersey.http.RequestBodyFraming;
import dev.restbench.jersey.http.WellFormedUriHandler;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.support.FaultInjection;
import java.io.IOException;
import java.net.URI;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.HttpServer;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.threadpool.ThreadPoolConfig;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpContainer;
import org.glassfish.jersey.grizzly2.httpserver.GrizzlyHttpServerFactory;
import org.glassfish.jersey.server.ContainerFactory;

/**
 * A running service: pool, schema check, Grizzly with Jersey. {@link #close()} stops it all. jersey-jpa starts the
 * same application on its JPA data access ({@link #start(ServiceConfig, FaultInjection, DataAccess.Opener)}).
 */
public final class JerseyApp implements AutoCloseable {

    /** Threads kept even when idle, like Tomcat's default minimum of spare threads. */
    private static final int CORE_WORKER_THREADS = 10;

    /** Idle keep-alive timeout, the same in every variant (Tomcat's default; Grizzly's is 30 s). */
    private static final int KEEP_ALIVE_IDLE_SECONDS = 60;

    private final HttpServer server;
    private final DataAccess data;
    private final ServiceMetrics metrics;

    private JerseyApp(HttpServer server, DataAccess data, ServiceMetrics metrics) {
        this.server = server;
        this.data = data;
        this.metrics = metrics;
    }

    /** Starts the service on plain JDBC or throws {@link StartupException} saying what is wrong. */
    public static JerseyApp start(ServiceConfig config, FaultInjection faults) {
        return start(config, faults, Database::open);
    }

    /** Starts the service on the data access {@code opener} opens, or throws {@link StartupException}. */
    public static JerseyApp start(ServiceConfig config, FaultInjection faults, DataAccess.Opener opener) {
        ServiceMetrics metrics = new ServiceMetrics();
        DataAccess data;
        try {
            data = opener.open(config, metrics.registry());
        } catch (RuntimeException e) {
            metrics.close();
            throw e;
        }
        try {
            ApiApplication application = new ApiApplication(config, data, metrics);
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
            return new JerseyApp(server, data, metrics);
        } catch (RuntimeException e) {
            data.close();
            metrics.close();
            throw e;
        }
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return server.getListeners().iterator().next().getPort();
    }

    @Override
    public void close() {
        server.shutdownNow();
        data.close();
        metrics.close();
    }

    private static String hostForUri(String address) {
        return address.contains(":") && !address.startsWith("[") ? "[" + address + "]" : address;
    }
}
