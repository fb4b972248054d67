package dev.restbench.resteasy;

import com.zaxxer.hikari.HikariDataSource;
import dev.restbench.jersey.StartupException;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.Database;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.resteasy.edge.FaultInjectionHandler;
import dev.restbench.resteasy.edge.ProblemEdgeHandler;
import dev.restbench.resteasy.edge.ProblemSendErrorFilter;
import dev.restbench.resteasy.metrics.RequestMetricsFilter;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.FilterInfo;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletException;
import java.net.InetSocketAddress;
import org.jboss.resteasy.core.ResteasyDeploymentImpl;
import org.jboss.resteasy.plugins.server.servlet.HttpServlet30Dispatcher;
import org.jboss.resteasy.spi.ResteasyDeployment;
import org.xnio.Options;

/**
 * A running service: pool, schema check, Undertow with RESTEasy (its servlet dispatcher in an Undertow servlet
 * deployment, as resteasy-undertow's UndertowJaxrsServer sets it up). {@link #close()} stops it all.
 */
public final class ResteasyApp implements AutoCloseable {

    /** Worker threads kept even when idle, as in jersey's Grizzly pool (Tomcat's default spare threads). */
    private static final int CORE_WORKER_THREADS = 10;

    /** Idle keep-alive timeout, the same in every variant (Tomcat's default). */
    private static final int KEEP_ALIVE_IDLE_MILLIS = 60_000;

    private final Undertow server;
    private final DeploymentManager servlets;
    private final ResteasyDeployment deployment;
    private final HikariDataSource dataSource;
    private final ServiceMetrics metrics;

    private ResteasyApp(Undertow server, DeploymentManager servlets, ResteasyDeployment deployment,
                        HikariDataSource dataSource, ServiceMetrics metrics) {
        this.server = server;
        this.servlets = servlets;
        this.deployment = deployment;
        this.dataSource = dataSource;
        this.metrics = metrics;
    }

    /** Starts the service or throws {@link StartupException} saying what is wrong. */
    public static ResteasyApp start(ServiceConfig config, dev.restbench.support.FaultInjection faults) {
        ServiceMetrics metrics = new ServiceMetrics();
        HikariDataSource dataSource = Database.connect(config, metrics.registry());
        ResteasyDeployment deployment = null;
        DeploymentManager servlets = null;
        try {
            Database.validateSchema(dataSource);
            RestApplication application = new RestApplication(config, dataSource, metrics);
            deployment = new ResteasyDeploymentImpl();
            deployment.setApplication(application);
            deployment.setRegisterBuiltin(false);
            deployment.start();
            application.injectContext(deployment.getProviderFactory());

            DeploymentInfo info = Servlets.deployment()
                    .setClassLoader(ResteasyApp.class.getClassLoader())
                    .setContextPath("")
                    .setDeploymentName("resteasy")
                    .addServletContextAttribute(ResteasyDeployment.class.getName(), deployment)
                    .addServlet(Servlets.servlet("resteasy", HttpServlet30Dispatcher.class)
                            .setLoadOnStartup(1)
                            .addMapping("/*"))
                    .addFilter(new FilterInfo("problems", ProblemSendErrorFilter.class))
                    .addFilterUrlMapping("problems", "/*", DispatcherType.REQUEST)
                    .addFilter(new FilterInfo("metrics", RequestMetricsFilter.class,
                            new ImmediateInstanceFactory<>(new RequestMetricsFilter(metrics.registry()))))
                    .addFilterUrlMapping("metrics", "/*", DispatcherType.REQUEST);
            servlets = Servlets.defaultContainer().addDeployment(info);
            servlets.deploy();
            HttpHandler handler;
            try {
                handler = servlets.start();
            } catch (ServletException e) {
                throw new StartupException("cannot start RESTEasy: " + e.getMessage(), e);
            }
            if (faults.enabled()) {
                handler = new FaultInjectionHandler(handler, faults);
            }
            handler = new ProblemEdgeHandler(handler);

            Undertow server = Undertow.builder()
                    .addHttpListener(config.port(), config.bindAddress())
                    .setWorkerThreads(config.httpThreads())
                    .setWorkerOption(Options.WORKER_TASK_CORE_THREADS,
                            Math.min(CORE_WORKER_THREADS, config.httpThreads()))
                    // As in every variant: 60 s idle keep-alive; Undertow has no per-connection request limit.
                    .setServerOption(UndertowOptions.NO_REQUEST_TIMEOUT, KEEP_ALIVE_IDLE_MILLIS)
                    // ProblemEdgeHandler checks the escapes and decodes: a malformed one is a problem detail, not the
                    // parser's bare 400.
                    .setServerOption(UndertowOptions.DECODE_URL, false)
                    .setHandler(handler)
                    .build();
            try {
                server.start();
            } catch (RuntimeException e) {
                throw new StartupException("cannot listen on " + config.bindAddress() + ":" + config.port()
                        + ": " + rootMessage(e), e);
            }
            metrics.markReady();
            return new ResteasyApp(server, servlets, deployment, dataSource, metrics);
        } catch (RuntimeException e) {
            stopQuietly(servlets, deployment);
            dataSource.close();
            metrics.close();
            throw e;
        }
    }

    /** The port actually bound (differs from the configured one when that was 0). */
    public int port() {
        return ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    }

    /** Undertow's IO (selector) threads: its default, max(2, available processors). */
    public int ioThreads() {
        return server.getWorker().getIoThreadCount();
    }

    @Override
    public void close() {
        server.stop();
        stopQuietly(servlets, deployment);
        dataSource.close();
        metrics.close();
    }

    private static void stopQuietly(DeploymentManager servlets, ResteasyDeployment deployment) {
        try {
            if (servlets != null) {
                servlets.stop();
                servlets.undeploy();
            }
        } catch (ServletException | RuntimeException e) {
            // best effort: the pool and the registry must be closed whatever the servlet layer reports
        }
        if (deployment != null) {
            deployment.stop();
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
