package dev.restbench.resteasy.metrics;

import dev.restbench.jersey.api.ProblemMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.jboss.resteasy.spi.DefaultOptionsMethodException;
import org.jboss.resteasy.spi.ResteasyProviderFactory;

/**
 * jersey's {@link ProblemMapper}, unchanged, plus two things Jersey does elsewhere: the exception is remembered for the
 * {@code exception} tag of {@code http.server.requests} (Jersey's metrics listener sees it in its request event), and
 * RESTEasy's answer to an OPTIONS request, which it raises as an exception, passes through as the 200 with
 * {@code Allow} it is (Jersey answers OPTIONS without an exception).
 */
public final class ExceptionTaggingMapper implements ExceptionMapper<Throwable> {

    private final ProblemMapper problems = new ProblemMapper();

    @Context
    private HttpServletRequest request;

    public void injectContext(ResteasyProviderFactory providers) {
        providers.injectProperties(problems);
    }

    @Override
    public Response toResponse(Throwable exception) {
        if (exception instanceof DefaultOptionsMethodException options) {
            return options.getResponse();
        }
        request.setAttribute(RequestMetricsFilter.EXCEPTION_ATTRIBUTE, exception);
        return problems.toResponse(exception);
    }
}
