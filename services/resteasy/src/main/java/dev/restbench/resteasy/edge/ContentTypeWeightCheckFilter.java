package dev.restbench.resteasy.edge;

import dev.restbench.jersey.api.ProblemException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * A {@code q} parameter on the Content-Type that is not a number ({@code application/json;q=abc}) is a 400 problem
 * detail. RESTEasy reads that parameter with {@code Float.parseFloat} while it matches the request to a method and
 * fails with a bare NumberFormatException (a 500 through ProblemMapper). Runs after jersey's
 * ContentTypeCheckFilter, so the header is known to parse.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 150)
public final class ContentTypeWeightCheckFilter implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        MediaType type = request.getMediaType();
        String q = type == null ? null : type.getParameters().get("q");
        if (q == null) {
            return;
        }
        try {
            Float.parseFloat(q);
        } catch (NumberFormatException e) {
            throw ProblemException.badRequest("malformed Content-Type header '"
                    + request.getHeaderString("Content-Type") + "': q must be a number", List.of());
        }
    }
}
