package dev.restbench.springmvc.web;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.dao.OptimisticLockingFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Problem details (RFC 9457) for every error of the plain API. Spring's base class already answers 404 for
 * unknown paths, 405 (with Allow), 406 and 415; this class adds the field lists for 400, the database's
 * constraint violations and the API's own exceptions. Bad input never ends as a 5xx.
 */
@RestControllerAdvice
class ApiExceptionHandler extends ResponseEntityExceptionHandler {

    private static final Log log = LogFactory.getLog(ApiExceptionHandler.class);

    /** Unique constraints of the schema (shared/schema) and the request property each one protects. */
    private static final Map<String, String> UNIQUE_FIELDS = Map.of(
            "category_code_key", "code",
            "item_sku_key", "sku");

    private static final String ITEM_CATEGORY_FK = "item_category_fk";

    private static final URI ABOUT_BLANK = URI.create("about:blank");

    /** One entry of a problem's {@code errors} list. */
    record InvalidField(String field, String message) {
    }

    @ExceptionHandler(NotFoundException.class)
    ProblemDetail notFound(NotFoundException e) {
        return problem(HttpStatus.NOT_FOUND, e.getMessage());
    }

    /**
     * A PUT that loaded its row while a DELETE removed it: Hibernate's UPDATE finds no row and Spring reports it as
     * an optimistic locking failure. The resource is gone, so 404, as jersey's {@code UPDATE … RETURNING} answers.
     */
    @ExceptionHandler(OptimisticLockingFailureException.class)
    ProblemDetail deletedWhileUpdating(OptimisticLockingFailureException e) {
        return problem(HttpStatus.NOT_FOUND, "the resource was deleted while it was being updated");
    }

    @ExceptionHandler(UnknownCategoryException.class)
    ProblemDetail unknownCategory(UnknownCategoryException e) {
        return invalid(e.getMessage(), List.of(new InvalidField("categoryId", e.getMessage())));
    }

    @ExceptionHandler(ConflictException.class)
    ProblemDetail conflict(ConflictException e) {
        return problem(HttpStatus.CONFLICT, e.getMessage());
    }

    @ExceptionHandler(DataIntegrityViolationException.class)
    ProblemDetail constraintViolated(DataIntegrityViolationException e) {
        String constraint = ViolatedConstraints.name(e);
        String field = constraint == null ? null : UNIQUE_FIELDS.get(constraint);
        if (field != null) {
            ProblemDetail problem = problem(HttpStatus.CONFLICT,
                    "another resource already has this " + field);
            problem.setProperty("errors", List.of(new InvalidField(field, "already exists")));
            return problem;
        }
        if (ITEM_CATEGORY_FK.equals(constraint)) {
            // The category was deleted between our check and the insert/update.
            return invalid("category does not exist",
                    List.of(new InvalidField("categoryId", "category does not exist")));
        }
        // Validation lets nothing else through that the schema refuses, except values PostgreSQL cannot store
        // at all (a NUL character in text): still the client's input.
        log.warn("request refused by a database constraint: " + e.getMostSpecificCause().getMessage());
        return problem(HttpStatus.BAD_REQUEST, "the database refused a value");
    }

    @Override
    protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<InvalidField> errors = ex.getBindingResult().getFieldErrors().stream()
                .map(error -> new InvalidField(error.getField(), error.getDefaultMessage()))
                .toList();
        return respond(ex, invalid(describe(errors), errors), headers, request);
    }

    /** Paging parameters out of range (page < 0, size outside 1..100): validated, never clamped. */
    @Override
    protected ResponseEntity<Object> handleHandlerMethodValidationException(HandlerMethodValidationException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        List<InvalidField> errors = ex.getParameterValidationResults().stream()
                .flatMap(result -> result.getResolvableErrors().stream()
                        .map(error -> new InvalidField(result.getMethodParameter().getParameterName(),
                                error.getDefaultMessage())))
                .toList();
        return respond(ex, invalid(describe(errors), errors), headers, request);
    }

    /** A path id or query parameter that is not a number of the right type. */
    @Override
    protected ResponseEntity<Object> handleTypeMismatch(TypeMismatchException ex, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        String name = ex.getPropertyName() == null ? "value" : ex.getPropertyName();
        String message = "must be an integer";
        return respond(ex, invalid(name + " " + message, List.of(new InvalidField(name, message))), headers,
                request);
    }

    /** Malformed JSON, a wrong type for a property, a missing body, or a body above MAX_BODY_BYTES. */
    @Override
    protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException ex,
            HttpHeaders headers, HttpStatusCode status, WebRequest request) {
        if (causedBy(ex, BodyTooLargeException.class)) {
            return respond(ex, problem(BodyTooLargeException.STATUS,
                    ex.getMostSpecificCause().getMessage()), headers, request);
        }
        Throwable cause = ex.getMostSpecificCause();
        if (JsonReadErrors.malformed(cause)) {
            return respond(ex, problem(HttpStatus.BAD_REQUEST, "malformed JSON"),
                    headers, request);
        }
        String field = JsonReadErrors.field(cause);
        if (field != null) {
            String message = "wrong type or value out of range";
            return respond(ex, invalid(field + ": " + message, List.of(new InvalidField(field, message))),
                    headers, request);
        }
        String detail = JsonReadErrors.fromJson(cause) ? "the body is not the expected JSON object"
                : "a JSON body is required";
        return respond(ex, problem(HttpStatus.BAD_REQUEST, detail), headers, request);
    }

    /** Every problem this class answers with, also those built by the base class, names its type. */
    @Override
    protected ResponseEntity<Object> createResponseEntity(Object body, HttpHeaders headers,
            HttpStatusCode statusCode, WebRequest request) {
        if (body instanceof ProblemDetail problem && problem.getType() == null) {
            problem.setType(ABOUT_BLANK);
        }
        return super.createResponseEntity(body, headers, statusCode, request);
    }

    private ResponseEntity<Object> respond(Exception ex, ProblemDetail body, HttpHeaders headers,
            WebRequest request) {
        return handleExceptionInternal(ex, body, headers, HttpStatusCode.valueOf(body.getStatus()), request);
    }

    /**
     * Spring 7 leaves {@code type} null (meaning about:blank) and then omits it; the contract wants it written.
     */
    private static ProblemDetail problem(HttpStatus status, String detail) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
        problem.setType(ABOUT_BLANK);
        return problem;
    }

    private static ProblemDetail invalid(String detail, List<InvalidField> errors) {
        ProblemDetail problem = problem(HttpStatus.BAD_REQUEST, detail);
        problem.setProperty("errors", errors);
        return problem;
    }

    private static String describe(List<InvalidField> errors) {
        return "Invalid request content: " + errors.stream()
                .map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; "));
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
