package dev.restbench.jersey.http;

import dev.restbench.jersey.api.ProblemException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import java.util.List;

/**
 * A Content-Type header that does not parse is a 400 problem detail. Left to Jersey it is a 400 with an empty
 * body, answered before any exception mapper runs.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 200)
public final class ContentTypeCheckFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.getHeaderString("Content-Type") == null) {
            return;
        }
        try {
            request.getMediaType();
        } catch (RuntimeException e) {
            throw ProblemException.badRequest("malformed Content-Type header '"
                    + request.getHeaderString("Content-Type") + "'", List.of());
        }
    }
}
