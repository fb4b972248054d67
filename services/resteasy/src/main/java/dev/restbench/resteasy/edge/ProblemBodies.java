package dev.restbench.resteasy.edge;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.jersey.api.Problem;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;

/** Problem details for the answers the server gives itself, before or around RESTEasy (jersey's Problem record). */
final class ProblemBodies {

    private static final ObjectMapper JSON = new ObjectMapper();

    private ProblemBodies() {
    }

    static byte[] json(int status, String detail, String instance) {
        Problem problem = new Problem("about:blank", StatusCodes.getReason(status), status,
                detail != null ? detail
                        : status < 500 ? "the request is malformed" : "the server failed to handle the request",
                instance, null);
        try {
            return JSON.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a problem detail", e);
        }
    }

    /** Answers the exchange with a problem detail (Undertow's core API, no servlet involved). */
    static void send(HttpServerExchange exchange, int status, String detail) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Problem.MEDIA_TYPE);
        exchange.getResponseSender().send(ByteBuffer.wrap(json(status, detail, null)));
    }
}
