package dev.restbench.resteasy.edge;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.core.HttpHeaders;
import java.net.URI;

/**
 * {@code Location: /items/{id}}, as the contract shows it and jersey sends it: RESTEasy resolves the relative URI the
 * resources give ({@code Response.created}) against the request's base URI, as JAX-RS asks, and has no switch to keep
 * it relative (Jersey has {@code LOCATION_HEADER_RELATIVE_URI_RESOLUTION_DISABLED}). A location on this server's base
 * URI is written back as its path; any other is left alone.
 */
public final class RelativeLocation implements ContainerResponseFilter {

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object location = response.getHeaders().getFirst(HttpHeaders.LOCATION);
        if (location instanceof URI uri && uri.isAbsolute()) {
            URI base = request.getUriInfo().getBaseUri();
            if (base.getScheme().equals(uri.getScheme()) && base.getRawAuthority() != null
                    && base.getRawAuthority().equals(uri.getRawAuthority())) {
                response.getHeaders().putSingle(HttpHeaders.LOCATION, URI.create(uri.getRawPath()));
            }
        }
    }
}
