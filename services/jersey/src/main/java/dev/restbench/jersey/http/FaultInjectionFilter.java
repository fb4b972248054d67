package dev.restbench.jersey.http;

import dev.restbench.support.FaultInjection;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;

/**
 * The regression drill (FAULT_CPU_PERCENT): burns extra CPU in proportion to each request's own CPU time.
 * Registered only when the drill is enabled, so a normal run pays nothing for it.
 */
@PreMatching
public final class FaultInjectionFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String TOKEN = FaultInjectionFilter.class.getName() + ".token";

    private final FaultInjection faultInjection;

    public FaultInjectionFilter(FaultInjection faultInjection) {
        this.faultInjection = faultInjection;
    }

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(TOKEN, faultInjection.begin());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(TOKEN) instanceof Long token) {
            faultInjection.end(token);
        }
    }
}
