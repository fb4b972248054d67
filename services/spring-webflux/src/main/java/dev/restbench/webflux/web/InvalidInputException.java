package dev.restbench.webflux.web;

import java.util.List;
import java.util.stream.Collectors;

/** A request the API refuses with 400 and the fields it lists in {@code errors}. */
public class InvalidInputException extends RuntimeException {

    /** One entry of a problem's {@code errors} list. */
    public record InvalidField(String field, String message) {
    }

    private final transient List<InvalidField> errors;

    public InvalidInputException(String detail, List<InvalidField> errors) {
        super(detail, null, false, false);
        this.errors = errors;
    }

    public List<InvalidField> errors() {
        return errors;
    }

    /** A value out of range (paging): "Invalid request content: size must be …", as Spring's validation says. */
    static InvalidInputException invalid(String field, String message) {
        List<InvalidField> errors = List.of(new InvalidField(field, message));
        return new InvalidInputException(describe(errors), errors);
    }

    /** A path or query parameter that is not an integer (spring-mvc's type mismatch answer). */
    static InvalidInputException wrongType(String field) {
        String message = "must be an integer";
        return new InvalidInputException(field + " " + message, List.of(new InvalidField(field, message)));
    }

    public static String describe(List<InvalidField> errors) {
        return "Invalid request content: " + errors.stream()
                .map(error -> error.field() + " " + error.message())
                .collect(Collectors.joining("; "));
    }
}
