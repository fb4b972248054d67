package dev.restbench.plain.api;

import java.util.List;

/**
 * A client error the resources detect themselves, with its HTTP status; each variant's exception mapper renders it as a
 * problem detail. The status is a number, not a JAX-RS {@code Status}, so that this module stays framework-free.
 */
public final class ProblemException extends RuntimeException {

    private final int status;
    private final List<FieldError> errors;

    private ProblemException(int status, String detail, List<FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.errors = errors;
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(404, detail, null);
    }

    public static ProblemException badRequest(String detail, List<FieldError> errors) {
        return new ProblemException(400, detail, errors.isEmpty() ? null : List.copyOf(errors));
    }

    public static ProblemException invalidField(String field, String message) {
        return badRequest("invalid " + field + ": " + message, List.of(new FieldError(field, message)));
    }

    public int status() {
        return status;
    }

    public List<FieldError> errors() {
        return errors;
    }
}
