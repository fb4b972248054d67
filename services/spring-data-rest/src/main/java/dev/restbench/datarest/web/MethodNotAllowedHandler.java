package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * 405 with {@code Allow} for a method a repository resource does not support ({@code DELETE /items},
 * {@code POST /items/1}). Spring Data REST's handler mapping deliberately returns no handler when only the method
 * does not match (so an application controller may take the request), and the request would otherwise end at the
 * static-resource handler as a 404. This mapping sits between the two and sees only what SDR turned down.
 */
final class MethodNotAllowedHandler implements HttpRequestHandler {

    private final List<String> allowed;

    private MethodNotAllowedHandler(String... allowed) {
        this.allowed = List.of(allowed);
    }

    /** Ordered after SDR's mapping (LOWEST_PRECEDENCE - 100), before static resources (LOWEST_PRECEDENCE - 1). */
    static SimpleUrlHandlerMapping mapping() {
        MethodNotAllowedHandler collection = new MethodNotAllowedHandler("GET", "HEAD", "POST", "OPTIONS");
        MethodNotAllowedHandler item = new MethodNotAllowedHandler("GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS");
        MethodNotAllowedHandler readOnly = new MethodNotAllowedHandler("GET", "HEAD", "OPTIONS");
        Map<String, Object> handlers = new LinkedHashMap<>();
        for (String repository : List.of("/categories", "/items")) {
            handlers.put(repository, collection);
            handlers.put(repository + "/*", item);
        }
        handlers.put("/items/search", readOnly);
        handlers.put("/items/search/*", readOnly);
        // SDR's root, profile and to-one association item resources (found by the fuzzer: 404 or 415, not 405).
        handlers.put("/", readOnly);
        handlers.put("/profile", readOnly);
        handlers.put("/profile/*", readOnly);
        handlers.put("/items/*/category/*", new MethodNotAllowedHandler("GET", "HEAD", "DELETE", "OPTIONS"));
        return new SimpleUrlHandlerMapping(handlers, Ordered.LOWEST_PRECEDENCE - 50);
    }

    @Override
    public void handleRequest(HttpServletRequest request, HttpServletResponse response) throws IOException {
        // An allowed method that SDR still turned down means the resource itself is unknown.
        HttpStatus status = allowed.contains(request.getMethod()) ? HttpStatus.NOT_FOUND : HttpStatus.METHOD_NOT_ALLOWED;
        if (status == HttpStatus.METHOD_NOT_ALLOWED) {
            response.setHeader(HttpHeaders.ALLOW, String.join(", ", allowed));
        }
        response.setStatus(status.value());
        response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
        response.setCharacterEncoding(StandardCharsets.UTF_8.name());
        response.getWriter().write("{\"type\":\"about:blank\",\"title\":\"" + status.getReasonPhrase() + "\",\"status\":"
                + status.value() + ",\"instance\":\"" + RequestBodyLimitFilter.jsonEscape(request.getRequestURI())
                + "\"}");
    }
}
