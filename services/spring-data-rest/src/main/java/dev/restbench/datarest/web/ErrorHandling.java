package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.data.repository.support.QueryMethodParameterConversionException;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.method.annotation.HandlerMethodValidationException;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The bad-input cases Spring Data REST answers with 500 or not at all, as RFC 9457 problem details. Everything else
 * keeps SDR's own error bodies (validation errors, 409 conflicts, unreadable JSON). Ordered before SDR's
 * RepositoryRestExceptionHandler, which maps conversion failures to 500.
 */
@RestControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
public class ErrorHandling {

    private static final Log log = LogFactory.getLog(ErrorHandling.class);

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

    /** A path variable outside its constraint ({@code /cache/a.b}): 400, not the servlet container's error page. */
    @ExceptionHandler(HandlerMethodValidationException.class)
    ProblemDetail invalidParameter(HandlerMethodValidationException e, HttpServletRequest request) {
        String names = e.getParameterValidationResults().stream()
                .map(result -> result.getMethodParameter().getParameterName())
                .distinct()
                .collect(Collectors.joining(", "));
        return badRequest("invalid " + names, request);
    }

    /**
     * SDR's profile controller signals an unknown collection ({@code /profile/nothing}) with RestTemplate's
     * {@code HttpClientErrorException} (404), which no handler maps: it ended as a 500. Found by the fuzzer.
     */
    @ExceptionHandler(HttpClientErrorException.class)
    ProblemDetail clientError(HttpClientErrorException e, HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatus(e.getStatusCode());
        problem.setType(URI.create("about:blank"));
        problem.setInstance(URI.create(request.getRequestURI()));
        return problem;
    }

    /**
     * IllegalArgumentExceptions, which SDR's own handler turns into a 500 ("Unexpected failure during request
     * processing!"). Spring picks this handler also when the exception is only the cause of the one raised, so
     * {@code raised} is the exception as thrown. Found by the fuzzer:
     * <ul>
     *   <li>a {@code text/uri-list} line that is no URI ({@code PUT /items/1/category} with {@code {"a":1}}, or with
     *       a URI whose authority does not parse): SDR expands it as a URI template and {@code URI.create} or Spring's
     *       URI parser fails: 400;</li>
     *   <li>an unreadable body whose cause is one (PATCH with a property named "" or " "), which SDR itself answers
     *       with 400 "Could not read payload": 400.</li>
     * </ul>
     * Any other stays a server error, as a problem detail, and is logged as one.
     */
    @ExceptionHandler(IllegalArgumentException.class)
    ProblemDetail illegalArgument(Exception raised, HttpServletRequest request, HttpServletResponse response)
            throws IOException {
        if (raised instanceof InvalidMediaTypeException invalid) {
            // An Accept header that does not parse (a q that is no number): SDR's own negotiation throws it raw, and
            // negotiating this answer would throw it again, so the problem is written here. Found by probing.
            badRequestWritten(response, request, "a media type header does not parse: " + invalid.getMessage());
            return null;
        }
        // Thrown while the text/uri-list body was read into links (however deep in the URI parser: a bad authority
        // fails eight frames below UriTemplate, found by the fuzzer with seed 20261201), or by UriTemplate itself.
        StackTraceElement[] frames = raised.getStackTrace();
        boolean notAUri = Arrays.stream(frames).anyMatch(frame -> frame.getClassName()
                .equals("org.springframework.data.rest.webmvc.convert.UriListHttpMessageConverter")
                && frame.getMethodName().equals("read"))
                || Arrays.stream(frames).limit(4)
                .anyMatch(frame -> frame.getClassName().equals("org.springframework.hateoas.UriTemplate"));
        if (raised instanceof IllegalArgumentException && notAUri) {
            return badRequest("the body is not a URI", request);
        }
        if (raised instanceof HttpMessageNotReadableException unreadable) {
            return badRequest("the body could not be read: " + unreadable.getMostSpecificCause().getMessage(),
                    request);
        }
        log.error("request failed: " + request.getMethod() + " " + request.getRequestURI(), raised);
        ProblemDetail problem = ProblemDetail.forStatus(HttpStatus.INTERNAL_SERVER_ERROR);
        problem.setType(URI.create("about:blank"));
        problem.setInstance(URI.create(request.getRequestURI()));
        return problem;
    }

    private static void badRequestWritten(HttpServletResponse response, HttpServletRequest request, String detail)
            throws IOException {
        response.setStatus(HttpStatus.BAD_REQUEST.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\""
                + RequestBodyLimitFilter.jsonEscape(detail) + "\",\"instance\":\""
                + RequestBodyLimitFilter.jsonEscape(request.getRequestURI()) + "\"}");
        response.flushBuffer();
    }

    private static ProblemDetail badRequest(String detail, HttpServletRequest request) {
        ProblemDetail problem = ProblemDetail.forStatusAndDetail(HttpStatus.BAD_REQUEST, detail);
        problem.setType(URI.create("about:blank"));
        problem.setInstance(URI.create(request.getRequestURI()));
        return problem;
    }
}
