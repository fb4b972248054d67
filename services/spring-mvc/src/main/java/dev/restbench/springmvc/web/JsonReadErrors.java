package dev.restbench.springmvc.web;

import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamReadException;

import java.util.stream.Collectors;

/**
 * What Jackson 3 says about a request body it could not read, as ApiExceptionHandler answers it. The one place of the
 * error handling that names the JSON library (services/spring-mvc-boot3 has the Jackson 2 version of this class).
 */
final class JsonReadErrors {

    private JsonReadErrors() {
    }

    /** Not JSON at all (a value out of a number type's range is a wrong value, not malformed JSON). */
    static boolean malformed(Throwable cause) {
        return cause instanceof StreamReadException && !(cause instanceof InputCoercionException);
    }

    /** The property the error is about ({@code category.id}, {@code [2]}), or null when Jackson names none. */
    static String field(Throwable cause) {
        if (!(cause instanceof JacksonException jackson) || jackson.getPath().isEmpty()) {
            return null;
        }
        return jackson.getPath().stream()
                .map(reference -> reference.getPropertyName() != null
                        ? reference.getPropertyName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."));
    }

    /** Jackson read the body and refused it (rather than there being no body). */
    static boolean fromJson(Throwable cause) {
        return cause instanceof JacksonException;
    }
}
