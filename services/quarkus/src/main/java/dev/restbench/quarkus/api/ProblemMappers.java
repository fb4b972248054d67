package dev.restbench.quarkus.api;

import dev.restbench.plain.api.FieldError;
import dev.restbench.plain.api.ProblemException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.restbench.plain.data.DataConflictException;
import dev.restbench.plain.data.UnknownCategoryException;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.math.BigDecimal;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Every exception Quarkus REST sees becomes an RFC 9457 problem detail. The most specific mapper wins, so the
 * Jackson types are mapped here explicitly (quarkus-rest-jackson's own mappers answer them with other bodies), and
 * Throwable catches the rest; only failures of the service itself (database down, bugs) become 5xx, and are logged.
 * What Vert.x answers before Quarkus REST sees a request is turned into problem details by {@code http/HttpEdge}.
 */
public class ProblemMappers {

    private static final Logger LOG = Logger.getLogger(ProblemMappers.class);

    @ServerExceptionMapper
    public Response problem(ProblemException e, HttpServerRequest request) {
        return Problems.response(e.status(), e.getMessage(), request.path(), e.errors());
    }

    @ServerExceptionMapper
    public Response conflict(DataConflictException e, HttpServerRequest request) {
        return Problems.response(409, e.getMessage(), request.path(), null);
    }

    @ServerExceptionMapper
    public Response unknownCategory(UnknownCategoryException e, HttpServerRequest request) {
        return Problems.response(400, e.getMessage(), request.path(),
                List.of(new FieldError("categoryId", "category " + e.categoryId() + " does not exist")));
    }

    @ServerExceptionMapper
    public Response web(WebApplicationException e, HttpServerRequest request) {
        Response mapped = fromCauses(e, request);
        if (mapped != null) {
            return mapped;
        }
        Response original = e.getResponse();
        int status = original.getStatus();
        String detail = switch (status) {
            case 404 -> "no resource at " + request.path();
            case 405 -> "method " + request.method().name() + " is not allowed on " + request.path();
            case 406 -> "this resource only produces application/json";
            case 413 -> Problems.tooLarge();
            case 415 -> "the request body must be application/json";
            default -> e.getMessage();
        };
        if (status >= 500) {
            LOG.errorf(e, "failure on %s %s", request.method(), request.uri());
        }
        String allow = original.getHeaderString(HttpHeaders.ALLOW);
        if (status == 405 && allow == null) {
            allow = AllowedMethods.at(request.path());
        }
        Response.ResponseBuilder builder = Problems.builder(status, detail, request.path(), null);
        if (allow != null) {
            builder.header(HttpHeaders.ALLOW, allow);
        }
        return builder.build();
    }

    @ServerExceptionMapper
    public Response json(JsonProcessingException e, HttpServerRequest request) {
        return json(e, request.path());
    }

    @ServerExceptionMapper
    public Response mismatchedInput(MismatchedInputException e, HttpServerRequest request) {
        return json(e, request.path());
    }

    @ServerExceptionMapper
    public Response sql(SQLException e, HttpServerRequest request) {
        if (isDataError(e)) {
            // A value PostgreSQL refuses (encoding, range, check) that validation let through: the request's fault,
            // so a 400, but logged because the validation should have caught it.
            LOG.warnf("database refused a value on %s %s: %s", request.method(), request.uri(), e.getMessage());
            return Problems.response(400, "the database refused a value of the request", request.path(), null);
        }
        return failure(e, request);
    }

    @ServerExceptionMapper
    public Response any(Throwable e, HttpServerRequest request) {
        Response mapped = fromCauses(e, request);
        return mapped != null ? mapped : failure(e, request);
    }

    /** Body-reading failures may arrive wrapped: look along the cause chain. */
    private Response fromCauses(Throwable exception, HttpServerRequest request) {
        for (Throwable cause = exception; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonProcessingException json) {
                return json(json, request.path());
            }
            if (cause instanceof UnsupportedCharsetException || cause instanceof IllegalCharsetNameException) {
                return Problems.response(415, "unsupported charset in Content-Type", request.path(), null);
            }
            if (cause instanceof ProblemException problem) {
                return problem(problem, request);
            }
        }
        return null;
    }

    private static Response failure(Throwable e, HttpServerRequest request) {
        LOG.errorf(e, "unexpected failure on %s %s", request.method(), request.uri());
        return Problems.response(500, "the service failed to handle the request", request.path(), null);
    }

    /** SQLState class 22 (data exception) or 23514 (check violation). */
    private static boolean isDataError(SQLException exception) {
        String state = exception.getSQLState();
        return state != null && (state.startsWith("22") || state.equals("23514"));
    }

    private static Response json(JsonProcessingException exception, String path) {
        if (exception instanceof MismatchedInputException mismatch) {
            String field = fieldPath(mismatch);
            if (field.isEmpty()) {
                return Problems.response(400, "the request body must be a JSON object", path, null);
            }
            String message = expected(mismatch.getTargetType());
            return Problems.response(400, "invalid " + field + ": " + message, path,
                    List.of(new FieldError(field, message)));
        }
        if (exception instanceof JsonMappingException mapping && !fieldPath(mapping).isEmpty()) {
            String field = fieldPath(mapping);
            String message = mapping.getCause() instanceof InputCoercionException
                    ? "is out of range" : "has an invalid value";
            return Problems.response(400, "invalid " + field + ": " + message, path,
                    List.of(new FieldError(field, message)));
        }
        if (exception instanceof InputCoercionException coercion && coercion.getProcessor() != null) {
            String field = coercion.getProcessor().getParsingContext().getCurrentName();
            if (field != null) {
                return Problems.response(400, "invalid " + field + ": number out of range", path,
                        List.of(new FieldError(field, "is out of range")));
            }
        }
        return Problems.response(400, "malformed JSON: " + exception.getOriginalMessage(), path, null);
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
}
