package dev.restbench.quarkus.api;

import dev.restbench.plain.api.FieldError;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.quarkus.config.ServiceConfig;
import jakarta.ws.rs.core.Response;
import java.util.List;

/**
 * Problem details as bytes of application/problem+json. Serialised here rather than left to a message body writer,
 * so that an error is rendered the same way whatever the request's Accept header (a 406 must still have a body)
 * and on both paths: Quarkus REST's exception mappers and the Vert.x handlers of {@code http/HttpEdge}.
 */
public final class Problems {

    private static final ObjectMapper JSON = new ObjectMapper();

    private Problems() {
    }

    public static String json(int status, String detail, String instance, List<FieldError> errors) {
        try {
            return JSON.writeValueAsString(Problem.of(status, detail, instance, errors));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialise a problem detail", e);
        }
    }

    static Response.ResponseBuilder builder(int status, String detail, String instance, List<FieldError> errors) {
        return Response.status(status).type(Problem.MEDIA_TYPE + "; charset=UTF-8")
                .entity(json(status, detail, instance, errors));
    }

    static Response response(int status, String detail, String instance, List<FieldError> errors) {
        return builder(status, detail, instance, errors).build();
    }

    public static String tooLarge() {
        return "the request body exceeds the limit of " + ServiceConfig.current().maxBodyBytes() + " bytes";
    }
}
