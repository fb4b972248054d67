package dev.restbench.quarkus.api;

import dev.restbench.quarkus.data.PgErrors;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.pgclient.PgException;
import jakarta.ws.rs.core.Response;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * What services/quarkus's ProblemMappers#sql does for pgjdbc's SQLException, for the reactive client's PgException
 * (which is no SQLException): a value PostgreSQL refuses that validation let through is a 400, logged; any other
 * database error is the service's failure, a 500, logged. Conflicts never get here: the repositories turn them into
 * bench-plain-jdbc's DataConflictException and UnknownCategoryException, which ProblemMappers renders.
 */
public class PgProblemMapper {

    private static final Logger LOG = Logger.getLogger(PgProblemMapper.class);

    @ServerExceptionMapper
    public Response pg(PgException e, HttpServerRequest request) {
        if (PgErrors.isDataError(e)) {
            LOG.warnf("database refused a value on %s %s: %s", request.method(), request.uri(), e.getMessage());
            return Problems.response(400, "the database refused a value of the request", request.path(), null);
        }
        LOG.errorf(e, "unexpected failure on %s %s", request.method(), request.uri());
        return Problems.response(500, "the service failed to handle the request", request.path(), null);
    }
}
