package dev.restbench.jersey.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.jersey.api.Problem;
import org.glassfish.grizzly.http.server.ErrorPageGenerator;
import org.glassfish.grizzly.http.server.Request;

/**
 * Errors Grizzly answers itself, before Jersey sees the request (unparseable URI, bad headers), as problem details
 * too, instead of Grizzly's HTML page that shows the stack trace.
 */
public final class ProblemErrorPages implements ErrorPageGenerator {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public String generate(Request request, int status, String reasonPhrase, String description, Throwable exception) {
        request.getResponse().setContentType(Problem.MEDIA_TYPE);
        request.getResponse().setCharacterEncoding("UTF-8");
        Problem problem = new Problem("about:blank", reasonPhrase, status,
                status < 500 ? "the request is malformed" : "the server failed to handle the request",
                null, null);
        try {
            return JSON.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a problem detail", e);
        }
    }
}
