package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.servlet.HandlerInterceptor;

import java.util.List;

/**
 * 405 for a write to the search resources ({@code PUT /items/search}, {@code POST /items/search/byCategory}). SDR's
 * item controller takes {@code /items/search} for an item whose id is "search", so such a write became a 415 or a
 * 404 instead of a 405 (found by the fuzzer). Runs before {@link RequestContentTypeInterceptor}.
 */
final class ReadOnlySearchInterceptor implements HandlerInterceptor {

    private static final List<String> ALLOWED = List.of("GET", "HEAD", "OPTIONS");

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler)
            throws HttpRequestMethodNotSupportedException {
        if (!ALLOWED.contains(request.getMethod())) {
            throw new HttpRequestMethodNotSupportedException(request.getMethod(), ALLOWED);
        }
        return true;
    }
}
