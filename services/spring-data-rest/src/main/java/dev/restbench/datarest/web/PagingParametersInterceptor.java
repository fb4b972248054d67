package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Rejects {@code page} and {@code size} values that Spring Data's pageable resolver would silently replace:
 * {@code page} must be an integer &ge; 0 and {@code size} an integer from 1 to the maximum page size. Also rejects
 * a page whose first row lies beyond 2^31-1, which JPA cannot express as an offset.
 */
final class PagingParametersInterceptor implements HandlerInterceptor {

    private final int defaultPageSize;
    private final int maxPageSize;

    PagingParametersInterceptor(int defaultPageSize, int maxPageSize) {
        this.defaultPageSize = defaultPageSize;
        this.maxPageSize = maxPageSize;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        long page = parse("page", request.getParameterValues("page"), 0, Integer.MAX_VALUE, 0);
        long size = parse("size", request.getParameterValues("size"), 1, maxPageSize, defaultPageSize);
        if (page * size > Integer.MAX_VALUE) {
            throw new InvalidPagingParameterException(
                    "page * size must not exceed " + Integer.MAX_VALUE + ", got " + page + " * " + size);
        }
        return true;
    }

    private static long parse(String name, String[] values, int min, int max, int absent) {
        if (values == null) {
            return absent;
        }
        if (values.length > 1) {
            throw new InvalidPagingParameterException(name + " must be given at most once");
        }
        String range = max == Integer.MAX_VALUE ? "an integer >= " + min : "an integer from " + min + " to " + max;
        long value;
        try {
            value = Long.parseLong(values[0].trim());
        } catch (NumberFormatException e) {
            throw new InvalidPagingParameterException(name + " must be " + range + ", got '" + values[0] + "'");
        }
        if (value < min || value > max) {
            throw new InvalidPagingParameterException(name + " must be " + range + ", got " + value);
        }
        return value;
    }
}
