package dev.restbench.jersey.api;

import dev.restbench.plain.api.FieldError;
import dev.restbench.plain.api.ProblemException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.data.UnknownCategoryException;
import dev.restbench.jersey.http.BodyTooLargeException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Request;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.Response.Status;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.ext.ExceptionMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns every exception into an RFC 9457 problem detail. It maps Throwable so that nothing reaches Jersey's
 * defaults (plain-text bodies, and 500 for body-parsing errors that are the client's fault); only failures of
 * the service itself (database down, bugs) become 5xx, and those are logged.
 */
public final class ProblemMapper implements ExceptionMapper<Throwable> {

    private static final Logger LOG = LoggerFactory.getLogger(ProblemMapper.class);

    @Context
    private UriInfo uriInfo;
    @Context
    private Request request;

    @Override
    public Response toResponse(Throwable exception) {
        if (exception instanceof ProblemException problem) {
            return problem(problem.status(), problem.getMessage(), problem.errors()).build();
        }
        if (exception instanceof DataConflictException conflict) {
            return problem(409, conflict.getMessage(), null).build();
        }
        if (exception instanceof UnknownCategoryException unknown) {
            return problem(400, unknown.getMessage(),
                    List.of(new FieldError("categoryId", "category " + unknown.categoryId() + " does not exist")))
                    .build();
        }
        // Body-reading failures may arrive wrapped by Jersey: look along the cause chain.
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof BodyTooLargeException tooLarge) {
                return problem(413, tooLarge.getMessage(), null).build();
            }
            if (cause instanceof JsonProcessingException json) {
                return json(json).build();
            }
        }
        if (exception instanceof IOException unreadable) {
            // The body stream broke while the entity was read (Jersey hands the reader's IOException over as it
            // is): Jetty's parser on a chunk-size line that is no hex number ("Early EOF"), a client gone midway.
            // The request's framing, not the service, so a 400 (it was a 500: issue 22).
            return problem(400, "the request body could not be read: " + unreadable.getMessage(), null).build();
        }
        if (exception instanceof WebApplicationException web) {
            return web(web);
        }
        if (exception instanceof SQLException sql && isDataError(sql)) {
            // A value PostgreSQL refuses (encoding, range, check constraint) that validation let through: the
            // request's fault, so a 400, but logged because the validation should have caught it.
            LOG.warn("database refused a value on {} {}: {}", request.getMethod(), uriInfo.getRequestUri(),
                    sql.getMessage());
            return problem(400, "the database refused a value of the request", null).build();
        }
        LOG.error("unexpected failure on {} {}", request.getMethod(), uriInfo.getRequestUri(), exception);
        return problem(500, "the service failed to handle the request", null).build();
    }

    /** SQLState class 22 (data exception) or 23514 (check violation). */
    private static boolean isDataError(SQLException exception) {
        String state = exception.getSQLState();
        return state != null && (state.startsWith("22") || state.equals("23514"));
    }

    private Response web(WebApplicationException exception) {
        Response original = exception.getResponse();
        int status = original.getStatus();
        String detail = switch (status) {
            case 404 -> "no resource at " + path();
            case 405 -> "method " + request.getMethod() + " is not allowed on " + path();
            case 406 -> "this resource only produces application/json";
            case 415 -> "the request body must be application/json";
            default -> exception.getMessage();
        };
        if (status >= 500) {
            LOG.error("failure on {} {}", request.getMethod(), uriInfo.getRequestUri(), exception);
        }
        Response.ResponseBuilder builder = problem(status, detail, null);
        String allow = original.getHeaderString(HttpHeaders.ALLOW);
        if (allow != null) {
            builder.header(HttpHeaders.ALLOW, allow);
        }
        return builder.build();
    }

    private Response.ResponseBuilder json(JsonProcessingException exception) {
        if (exception instanceof MismatchedInputException mismatch) {
            String field = fieldPath(mismatch);
            if (field.isEmpty()) {
                return problem(400, "the request body must be a JSON object", null);
            }
            String message = expected(mismatch.getTargetType());
            return problem(400, "invalid " + field + ": " + message, List.of(new FieldError(field, message)));
        }
        if (exception instanceof JsonMappingException mapping && !fieldPath(mapping).isEmpty()) {
            String field = fieldPath(mapping);
            String message = mapping.getCause() instanceof InputCoercionException
                    ? "is out of range" : "has an invalid value";
            return problem(400, "invalid " + field + ": " + message, List.of(new FieldError(field, message)));
        }
        if (exception instanceof InputCoercionException coercion) {
            String field = coercion.getProcessor() == null ? null
                    : coercion.getProcessor().getParsingContext().getCurrentName();
            if (field != null) {
                return problem(400, "invalid " + field + ": number out of range",
                        List.of(new FieldError(field, "is out of range")));
            }
        }
        return problem(400, "malformed JSON: " + exception.getOriginalMessage(), null);
    }

    private static String fieldPath(JsonMappingException exception) {
        return exception.getPath().stream()
                .map(reference -> reference.getFieldName() != null
                        ? reference.getFieldName()
                        : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."));
    }

    private static String expected(Class<?> type) {
        if (type == null) {
            return "has the wrong type";
        }
        if (type == String.class) {
            return "must be a string";
        }
        if (type == Long.class || type == long.class || type == Integer.class || type == int.class) {
            return "must be an integer";
        }
        if (type == BigDecimal.class || Number.class.isAssignableFrom(type)) {
            return "must be a number";
        }
        return "has the wrong type";
    }

    private Response.ResponseBuilder problem(int status, String detail, List<FieldError> errors) {
        Status known = Status.fromStatusCode(status);
        String title = known != null ? known.getReasonPhrase() : "HTTP " + status;
        return Response.status(status)
                .type(Problem.MEDIA_TYPE)
                .entity(new Problem("about:blank", title, status, detail, path(), errors));
    }

    private String path() {
        return uriInfo.getRequestUri().getRawPath();
    }
}
