package dev.restbench.resteasy.metrics;

import dev.restbench.jersey.metrics.ServiceMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * {@code http.server.requests} for RESTEasy: times the whole RESTEasy dispatch of a request (from the servlet's entry
 * to the last byte of the entity written into the response), with the tags jersey-micrometer's
 * {@code DefaultJerseyTagsProvider} gives: {@code method}, {@code uri} (the route template from
 * {@link RouteTemplateFilter}; {@code NOT_FOUND} for a 404 and {@code REDIRECTION} for a 3xx that matched no resource
 * method, {@code root} for "/", else {@code UNKNOWN}), {@code status}, {@code outcome}, {@code exception} (the simple
 * name of what {@link ExceptionTaggingMapper} mapped, or of its cause; {@code None} when nothing was thrown or the
 * answer is a 404 or 3xx).
 */
public final class RequestMetricsFilter extends HttpFilter {

    static final String ROUTE_ATTRIBUTE = "dev.restbench.route";
    static final String EXCEPTION_ATTRIBUTE = "dev.restbench.exception";

    private final MeterRegistry registry;

    public RequestMetricsFilter(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        long start = System.nanoTime();
        Throwable escaped = null;
        try {
            chain.doFilter(request, response);
        } catch (IOException | ServletException | RuntimeException | Error e) {
            escaped = e;
            throw e;
        } finally {
            int status = escaped == null ? response.getStatus() : 500;
            Object exception = escaped != null ? escaped : request.getAttribute(EXCEPTION_ATTRIBUTE);
            Tags tags = Tags.of(
                    Tag.of("method", request.getMethod()),
                    Tag.of("uri", uri((String) request.getAttribute(ROUTE_ATTRIBUTE), status)),
                    Tag.of("status", Integer.toString(status)),
                    Outcome.forStatus(status).asTag(),
                    Tag.of("exception", exception(exception instanceof Throwable t ? t : null, status)));
            Timer.builder(ServiceMetrics.HTTP_SERVER_REQUESTS).tags(tags).register(registry)
                    .record(System.nanoTime() - start, java.util.concurrent.TimeUnit.NANOSECONDS);
        }
    }

    private static String uri(String route, int status) {
        if (route == null) {
            if (status == 404) {
                return "NOT_FOUND";
            }
            if (status >= 300 && status < 400) {
                return "REDIRECTION";
            }
            return "UNKNOWN";
        }
        return route.equals("/") ? "root" : route;
    }

    private static String exception(Throwable exception, int status) {
        if (exception == null || status == 404 || (status >= 300 && status < 400)) {
            return "None";
        }
        Throwable named = exception.getCause() != null ? exception.getCause() : exception;
        String simpleName = named.getClass().getSimpleName();
        return simpleName.isEmpty() ? named.getClass().getName() : simpleName;
    }
}
