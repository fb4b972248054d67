package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * {@code /profile/%1D}: SDR's profile controller answered a collection name with a control character with 200 and
 * no body, where an unknown name is a 404 (found by the fuzzer with seed 20261127). No collection is named so:
 * the same 404 problem as any unknown one (ErrorHandling#clientError).
 */
final class ProfileNameInterceptor implements HandlerInterceptor {

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String path = request.getServletPath() + (request.getPathInfo() == null ? "" : request.getPathInfo());
        if (path.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw new HttpClientErrorException(HttpStatus.NOT_FOUND);
        }
        return true;
    }
}
