package dev.restbench.springmvc.web;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonMappingException;

import java.util.stream.Collectors;

/**
 * Stands in for services/spring-mvc's {@code web/JsonReadErrors.java} (Jackson 3) on Jackson 2: the same answers for
 * ApiExceptionHandler. Jackson 2 keeps the property path on {@code JsonMappingException} only (Jackson 3 on every
 * {@code JacksonException}).
 */
final class JsonReadErrors {

    private JsonReadErrors() {
    }

    static boolean malformed(Throwable cause) {
        return cause instanceof StreamReadException && !(cause instanceof InputCoercionException);
    }

    static String field(Throwable cause) {
        if (!(cause instanceof JsonMappingException mapping) || mapping.getPath().isEmpty()) {
            return null;
        }
        return mapping.getPath().stream()
                .map(reference -> reference.getFieldName() != null
                        ? reference.getFieldName() : "[" + reference.getIndex() + "]")
                .collect(Collectors.joining("."));
    }

    static boolean fromJson(Throwable cause) {
        return cause instanceof JacksonException;
    }
}
