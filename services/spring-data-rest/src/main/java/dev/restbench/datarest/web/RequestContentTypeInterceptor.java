package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;

import java.util.List;

/**
 * 415 for a write whose body is not JSON. Spring Data REST itself answers 400 ("no suitable
 * HttpMessageConverter") when it cannot read the Content-Type; HTTP says 415.
 */
final class RequestContentTypeInterceptor implements HandlerInterceptor {

    /** JSON and its +json flavours (HAL, merge-patch, json-patch); uri-list for association resources. */
    private static final List<MediaType> READABLE = List.of(
            MediaType.APPLICATION_JSON, new MediaType("application", "*+json"), MediaType.parseMediaType("text/uri-list"));

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws HttpMediaTypeNotSupportedException {
        String method = request.getMethod();
        // Only for SDR's controllers: a write to a resource that does not take it is a 405 (MethodNotAllowedHandler),
        // whatever its Content-Type; checking the type first made PUT /items/search a 415 (found by the fuzzer).
        if (!(handler instanceof HandlerMethod)
                || !method.equals("POST") && !method.equals("PUT") && !method.equals("PATCH")) {
            return true;
        }
        String header = request.getContentType();
        if (header == null) {
            throw new HttpMediaTypeNotSupportedException(null, READABLE, null);
        }
        MediaType contentType;
        try {
            contentType = MediaType.parseMediaType(header);
        } catch (InvalidMediaTypeException e) {
            throw new HttpMediaTypeNotSupportedException(e.getMessage(), READABLE);
        }
        for (MediaType readable : READABLE) {
            if (readable.includes(contentType)) {
                return true;
            }
        }
        throw new HttpMediaTypeNotSupportedException(contentType, READABLE, null);
    }
}
