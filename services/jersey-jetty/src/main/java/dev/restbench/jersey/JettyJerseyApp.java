package dev.restbench.jersey;

import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.DataAccess;
import dev.restbench.jersey.data.Database;
import dev.restbench.jersey.jetty.FaultInjectionWrapper;
import dev.restbench.jersey.jetty.DrainRefusedBody;
import dev.restbench.jersey.jetty.ProblemErrorHandler;
import dev.restbench.jersey.jetty.RejectConnect;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.support.FaultInjection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.VirtualThreads;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.glassfish.jersey.jetty.JettyHttpContainer;
import org.glassfish.jersey.server.ContainerFactory;

/**
 * The jersey application (its resources, JDBC layer, ResourceConfig and metrics, compiled from services/jersey) on
 * Jetty 12 instead of Grizzly. Only this launcher and the Jetty handlers in `jetty/` are specific to this variant.
 */
public final class JettyJerseyApp implements AutoCloseable {

    /** Threads kept even when idle, as in the Grizzly launcher. */
    private static final int MIN_WORKER_THREADS = 10;

    /** Idle keep-alive timeout, the same in every variant (Tomcat's default). */
    private static final long KEEP_ALIVE_IDLE_MILLIS = 60_000;

    /** How long a stop waits for requests in flight before closing connections. */
    private static final long GRACEFUL_STOP_MILLIS = 10_000;

    private final Server server;
    private final ServerConnector connector;
    private final DataAccess data;
    private final ServiceMetrics metrics;

    private JettyJerseyApp(Server server, ServerConnector connector, DataAccess data, ServiceMetrics metrics) {
        this.server = server;
        this.connector = connector;
        this.data = data;
        this.metrics = metrics;
    }

    /**
     * Starts the service or throws {@link StartupException}. With {@code virtualThreads} Jetty still runs its
     * selectors on the pool's platform threads but hands each request to a new virtual thread (JDK 21+).
     */
    public static JettyJerseyApp start(ServiceConfig config, FaultInjection faults, boolean virtualThreads) {
        ServiceMetrics metrics = new ServiceMetrics();
        DataAccess data = Database.open(config, metrics.registry());
        try {
            ApiApplication application = new ApiApplication(config, data, metrics);
            QueuedThreadPool threads = new QueuedThreadPool(config.httpThreads(),
                    Math.min(MIN_WORKER_THREADS, config.httpThreads()));
            threads.setName("http-worker");
            if (virtualThreads) {
                if (!VirtualThreads.areSupported()) {
                    throw new StartupException("virtual threads were asked for but this JDK has none", null);
                }
                threads.setVirtualThreadsExecutor(VirtualThreads.getNamedVirtualThreadsExecutor("http-virtual"));
            }
            Server server = new Server(threads);
            HttpConfiguration http = new HttpConfiguration();
            http.setSendServerVersion(false);
            ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(http));
            connector.setHost(config.bindAddress());
            connector.setPort(config.port());
            connector.setIdleTimeout(KEEP_ALIVE_IDLE_MILLIS);
            server.addConnector(connector);
            Handler handler = ContainerFactory.createContainer(JettyHttpContainer.class, application);
            if (faults.enabled()) {
                handler = new FaultInjectionWrapper(handler, faults);
            }
            server.setHandler(new RejectConnect(new DrainRefusedBody(handler, config.maxBodyBytes())));
            server.setErrorHandler(new ProblemErrorHandler());
            server.setStopTimeout(GRACEFUL_STOP_MILLIS);
            try {
                server.start();
            } catch (Exception e) {
                throw new StartupException("cannot listen on " + config.bindAddress() + ":" + config.port()
                        + ": " + e.getMessage(), e);
            }
            metrics.markReady();
            return new JettyJerseyApp(server, connector, data, metrics);
        } catch (RuntimeException e) {
            data.close();
            metrics.close();
            throw e;
        }
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            // Stopping is best effort: the pool and the registry must be closed whatever Jetty reports.
        }
        data.close();
        metrics.close();
    }
}
