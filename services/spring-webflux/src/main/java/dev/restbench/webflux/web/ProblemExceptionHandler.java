package dev.restbench.webflux.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.Ordered;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.bind.support.WebExchangeBindException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.json.JsonMapper;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Every error of the plain API as an RFC 9457 problem detail ({@code application/problem+json}), in one place: the
 * application's own exceptions, Spring WebFlux's (404 for unknown paths, 405 with Allow, 406, 415, a body that does
 * not decode or validate) and whatever else reaches the web handler. It runs before Spring Boot's
 * ErrorWebExceptionHandler (whose JSON is no problem detail), so that one never answers. The shapes and messages are
 * spring-mvc's (its ApiExceptionHandler). Bad input never ends as a 5xx; an exception nobody expected is logged and
 * answered 500, as a bug should be.
 */
public class ProblemExceptionHandler implements WebExceptionHandler, Ordered {

    private static final Log log = LogFactory.getLog(ProblemExceptionHandler.class);

    private final JsonMapper json;

    public ProblemExceptionHandler(JsonMapper json) {
        this.json = json;
    }

    /** Before Boot's DefaultErrorWebExceptionHandler (-1) and WebFlux's WebFluxResponseStatusExceptionHandler (0). */
    @Override
    public int getOrder() {
        return -2;
    }

    /** A problem to write: status, detail, optional errors and headers (Allow). */
    record Problem(HttpStatus status, String detail, List<InvalidInputException.InvalidField> errors,
            HttpHeaders headers) {

        Problem(HttpStatus status, String detail) {
            this(status, detail, null, null);
        }
    }

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        ServerHttpResponse response = exchange.getResponse();
        if (response.isCommitted()) {
            return Mono.error(ex);
        }
        Problem problem = problemFor(ex);
        if (problem.status().is5xxServerError()) {
            log.error("unexpected error on " + exchange.getRequest().getMethod() + " "
                    + exchange.getRequest().getPath() + ": " + ex, ex);
        }
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "about:blank");
        body.put("title", problem.status().getReasonPhrase());
        body.put("status", problem.status().value());
        if (problem.detail() != null) {
            body.put("detail", problem.detail());
        }
        body.put("instance", exchange.getRequest().getPath().value());
        if (problem.errors() != null) {
            body.put("errors", problem.errors());
        }
        byte[] bytes = json.writeValueAsBytes(body);
        response.setStatusCode(problem.status());
        HttpHeaders headers = response.getHeaders();
        if (problem.headers() != null) {
            headers.addAll(problem.headers());
        }
        headers.setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        headers.setContentLength(bytes.length);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(bytes)));
    }

    static Problem problemFor(Throwable ex) {
        if (causedBy(ex, BodyTooLargeException.class) instanceof BodyTooLargeException tooLarge) {
            return new Problem(HttpStatus.CONTENT_TOO_LARGE, tooLarge.getReason());
        }
        if (ex instanceof NotFoundException e) {
            return new Problem(HttpStatus.NOT_FOUND, e.getMessage());
        }
        if (ex instanceof InvalidInputException e) {
            return new Problem(HttpStatus.BAD_REQUEST, e.getMessage(), e.errors(), null);
        }
        if (ex instanceof UnknownCategoryException e) {
            return new Problem(HttpStatus.BAD_REQUEST, e.getMessage(),
                    List.of(new InvalidInputException.InvalidField("categoryId", e.getMessage())), null);
        }
        if (ex instanceof ConflictException e) {
            return new Problem(HttpStatus.CONFLICT, e.getMessage(), e.field() == null ? null
                    : List.of(new InvalidInputException.InvalidField(e.field(), "already exists")), null);
        }
        if (ex instanceof WebExchangeBindException e) {
            return invalidBody(e);
        }
        if (ex instanceof ServerWebInputException e) {
            return unreadableBody(e);
        }
        if (ex instanceof ResponseStatusException e) {
            return statusProblem(e);
        }
        if (ex instanceof DataIntegrityViolationException e) {
            // Validation lets nothing through that the schema refuses: still the client's input.
            log.warn("request refused by a database constraint: " + e.getMostSpecificCause().getMessage());
            return new Problem(HttpStatus.BAD_REQUEST, "the database refused a value");
        }
        return new Problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal error");
    }

    private static Problem invalidBody(WebExchangeBindException e) {
        List<InvalidInputException.InvalidField> errors = e.getBindingResult().getFieldErrors().stream()
                .map(error -> new InvalidInputException.InvalidField(error.getField(), error.getDefaultMessage()))
                .toList();
        return new Problem(HttpStatus.BAD_REQUEST, InvalidInputException.describe(errors), errors, null);
    }

    /** Malformed JSON, a wrong type for a property, a missing body (spring-mvc's answers for each). */
    private static Problem unreadableBody(ServerWebInputException e) {
        if (causedBy(e, UnsupportedCharsetException.class) != null
                || causedBy(e, IllegalCharsetNameException.class) != null) {
            return new Problem(HttpStatus.UNSUPPORTED_MEDIA_TYPE, "unsupported charset");
        }
        Throwable jacksonCause = causedBy(e, JacksonException.class);
        if (jacksonCause instanceof StreamReadException && !(jacksonCause instanceof InputCoercionException)) {
            return new Problem(HttpStatus.BAD_REQUEST, "malformed JSON");
        }
        if (jacksonCause instanceof JacksonException jackson && !jackson.getPath().isEmpty()) {
            String field = jackson.getPath().stream()
                    .map(reference -> reference.getPropertyName() != null
                            ? reference.getPropertyName() : "[" + reference.getIndex() + "]")
                    .collect(Collectors.joining("."));
            String message = "wrong type or value out of range";
            return new Problem(HttpStatus.BAD_REQUEST, field + ": " + message,
                    List.of(new InvalidInputException.InvalidField(field, message)), null);
        }
        if (jacksonCause != null) {
            return new Problem(HttpStatus.BAD_REQUEST, "the body is not the expected JSON object");
        }
        if (causedBy(e, CharacterCodingException.class) != null) {
            return new Problem(HttpStatus.BAD_REQUEST, "malformed JSON");
        }
        String reason = e.getReason();
        return new Problem(HttpStatus.BAD_REQUEST,
                reason != null && reason.contains("body") ? "a JSON body is required" : reason);
    }

    /** 404 (no route), 405 (with Allow), 406, 415, 413 and any other status WebFlux decided. */
    private static Problem statusProblem(ResponseStatusException e) {
        HttpStatus status = HttpStatus.resolve(e.getStatusCode().value());
        if (status == null) {
            status = e.getStatusCode().is4xxClientError() ? HttpStatus.BAD_REQUEST : HttpStatus.INTERNAL_SERVER_ERROR;
        }
        String detail = e.getReason() != null ? e.getReason() : status.getReasonPhrase();
        return new Problem(status, detail, null, e.getHeaders().isEmpty() ? null : e.getHeaders());
    }

    private static Throwable causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return t;
            }
        }
        return null;
    }
}
