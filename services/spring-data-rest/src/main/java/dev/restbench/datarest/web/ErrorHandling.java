package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.data.repository.support.QueryMethodParameterConversionException;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import java.net.URI;

/**
 * The bad-input cases Spring Data REST answers with 500 or not at all, as RFC 9457 problem details. Everything else
 * keeps SDR's own error bodies (validation errors, 409 conflicts, unreadable JSON). Ordered before SDR's
 * RepositoryRestExceptionHandler, which maps conversion failures to 500.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ErrorHandling {

    @ExceptionHandler(InvalidPagingParameterException.class)
    ProblemDetail invalidPaging(InvalidPagingParameterException e, HttpServletRequest request) {
        return badRequest(e.getMessage(), request);
    }

    /** A non-numeric id in the path ({@code /items/abc}) or query ({@code byCategory?categoryId=abc}). */
    @ExceptionHandler({ConversionFailedException.class, QueryMethodParameterConversionException.class})
    ProblemDetail wrongType(RuntimeException e, HttpServletRequest request) {
        ConversionFailedException conversion = e instanceof ConversionFailedException direct ? direct
                : e.getCause() instanceof ConversionFailedException cause ? cause : null;
        String detail = conversion == null ? "A parameter has the wrong type"
                : "'" + conversion.getValue() + "' is not a valid " + conversion.getTargetType().getType().getSimpleName();
        return badRequest(detail, request);
    }

    private static ProblemDetail badRequest(String detail, HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setType(URI.create("about:blank"));
        problem.setInstance(URI.create(request.getRequestURI()));
        return problem;
    }
}
