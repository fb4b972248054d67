package dev.restbench.jersey.api;

import jakarta.ws.rs.core.Response.Status;
import java.util.List;

/** A client error the resources detect themselves; {@link ProblemMapper} renders it. */
public final class ProblemException extends RuntimeException {

    private final Status status;
    private final List<FieldError> errors;

    private ProblemException(Status status, String detail, List<FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.errors = errors;
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(Status.NOT_FOUND, detail, null);
    }

    public static ProblemException badRequest(String detail, List<FieldError> errors) {
        return new ProblemException(Status.BAD_REQUEST, detail, errors.isEmpty() ? null : List.copyOf(errors));
    }

    public static ProblemException invalidField(String field, String message) {
        return badRequest("invalid " + field + ": " + message, List.of(new FieldError(field, message)));
    }

    public Status status() {
        return status;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
