package dev.restbench.resteasy.metrics;

import dev.restbench.jersey.api.ProblemMapper;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.ws.rs.ClientErrorException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import org.jboss.resteasy.spi.DefaultOptionsMethodException;
import org.jboss.resteasy.spi.Failure;
import org.jboss.resteasy.spi.ResteasyProviderFactory;

/**
 * jersey's {@link ProblemMapper}, unchanged, plus what differs between the two JAX-RS implementations around it:
 * <ul>
 *   <li>the exception is remembered for the {@code exception} tag of {@code http.server.requests} (Jersey's metrics
 *       listener sees it in its request event);</li>
 *   <li>RESTEasy's answer to an OPTIONS request, which it raises as an exception, passes through as the 200 with
 *       {@code Allow} it is (Jersey answers OPTIONS without an exception);</li>
 *   <li>a RESTEasy {@link Failure} that carries a client-error status (e.g. {@code Accept: text/html;q=abc}, a 400
 *       RESTEasy raises while matching) is that client error, as the equivalent {@link ClientErrorException}:
 *       ProblemMapper knows only JAX-RS exceptions and would make any other exception a 500.</li>
 * </ul>
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
        if (exception instanceof Failure failure && !(exception instanceof WebApplicationException)) {
            int status = failure.getResponse() != null ? failure.getResponse().getStatus() : failure.getErrorCode();
            if (status >= 400 && status < 500) {
                // The failure stays the cause: ProblemMapper still finds a JSON or body-size error along the chain.
                return problems.toResponse(new ClientErrorException(failure.getMessage(), status, failure));
            }
        }
        return problems.toResponse(exception);
    }
}
