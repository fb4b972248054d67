package dev.restbench.jersey.api;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Map;
import javax.sql.DataSource;

/** The endpoints every variant shares: health (does a pooled connection validate?) and Prometheus metrics. */
@Singleton
@Path("/actuator")
public class ActuatorResource {

    private static final int VALIDATION_TIMEOUT_SECONDS = 2;

    private final DataSource dataSource;
    private final PrometheusMeterRegistry registry;

    @Inject
    public ActuatorResource(DataSource dataSource, PrometheusMeterRegistry registry) {
        this.dataSource = dataSource;
        this.registry = registry;
    }

    @GET
    @Path("health")
    @Produces(MediaType.APPLICATION_JSON)
    public Response health() {
        boolean up;
        try (Connection connection = dataSource.getConnection()) {
            up = connection.isValid(VALIDATION_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            up = false;
        }
        return Response.status(up ? Response.Status.OK : Response.Status.SERVICE_UNAVAILABLE)
                .entity(Map.of("status", up ? "UP" : "DOWN"))
                .build();
    }

    @GET
    @Path("prometheus")
    @Produces("text/plain; version=0.0.4; charset=utf-8")
    public String prometheus() {
        return registry.scrape();
    }
}
