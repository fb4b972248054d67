package dev.restbench.springmvc.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.beans.TypeMismatchException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;

import java.util.List;

/**
 * The query parameters of the plain API are integers given at most once, never empty (openapi.yaml: not arrays,
 * and OpenAPI's allowEmptyValue is false): the same rule in every variant (issue 22). Spring binds an empty value
 * as the parameter's default (or null) and a repeated one as its first value, so both are refused here, before
 * any handler's arguments are bound, with the same problem as any other value that is no integer.
 */
@ControllerAdvice
class QueryParameters {

    private static final List<String> INTEGERS = List.of("page", "size", "categoryId");

    @ModelAttribute
    void singleNonEmptyValues(HttpServletRequest request) {
        for (String name : INTEGERS) {
            String[] values = request.getParameterValues(name);
            if (values != null && (values.length > 1 || values[0].isEmpty())) {
                TypeMismatchException refused = new TypeMismatchException(String.join(",", values), Long.class);
                refused.initPropertyName(name);
                throw refused;
            }
        }
    }
}
