package dev.restbench.resteasy.metrics;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The route template of the matched resource method ({@code /items/{id}}), for the {@code uri} tag of
 * {@code http.server.requests}: the class's {@code @Path} joined with the method's. A post-matching filter, so it runs
 * for every request RESTEasy matched to a method (before the method, so also when the method then fails); a request
 * that matched nothing (404, 405, 406, 415) has no template. Jersey's metrics listener reads the same from Jersey's
 * own matching state, which RESTEasy does not expose through JAX-RS.
 */
public final class RouteTemplateFilter implements ContainerRequestFilter {

    private final Map<Method, String> templates = new ConcurrentHashMap<>();

    @Context
    private ResourceInfo resourceInfo;

    @Override
    public void filter(ContainerRequestContext request) {
        Method method = resourceInfo.getResourceMethod();
        Class<?> resource = resourceInfo.getResourceClass();
        if (method != null && resource != null) {
            request.setProperty(RequestMetricsFilter.ROUTE_ATTRIBUTE,
                    templates.computeIfAbsent(method, m -> template(resource, m)));
        }
    }

    static String template(Class<?> resource, Method method) {
        StringBuilder template = new StringBuilder();
        append(template, resource.getAnnotation(Path.class));
        append(template, method.getAnnotation(Path.class));
        return template.isEmpty() ? "/" : template.toString();
    }

    private static void append(StringBuilder template, Path path) {
        if (path == null) {
            return;
        }
        String value = path.value();
        while (value.startsWith("/")) {
            value = value.substring(1);
        }
        while (value.endsWith("/")) {
            value = value.substring(0, value.length() - 1);
        }
        if (!value.isEmpty()) {
            template.append('/').append(value);
        }
    }
}
