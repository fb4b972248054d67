package dev.restbench.jersey.http;

import dev.restbench.plain.api.ProblemException;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A Content-Type header that does not parse is a 400 problem detail. Left to Jersey it is a 400 with an empty
 * body, answered before any exception mapper runs. So is a {@code q} parameter that is not a qvalue
 * ({@code application/json;q=abc}): Jersey and RESTEasy parse it while they match the request to a method, and
 * fail with a bare NumberFormatException (a 500).
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 200)
public final class ContentTypeCheckFilter implements ContainerRequestFilter {

    /** RFC 9110's qvalue: Jersey and RESTEasy read a q parameter as a number while matching and fail (500) on others. */
    private static final Pattern QVALUE = Pattern.compile("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?");

    @Override
    public void filter(ContainerRequestContext request) {
        if (request.getHeaderString("Content-Type") == null) {
            return;
        }
        MediaType type;
        try {
            type = request.getMediaType();
        } catch (RuntimeException e) {
            throw ProblemException.badRequest("malformed Content-Type header '"
                    + request.getHeaderString("Content-Type") + "'", List.of());
        }
        String q = type == null ? null : type.getParameters().get("q");
        if (q != null && !QVALUE.matcher(q).matches()) {
            throw ProblemException.badRequest("malformed Content-Type header '"
                    + request.getHeaderString("Content-Type") + "': q must be a number from 0 to 1", List.of());
        }
    }
}
