package dev.restbench.datarest.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Rejects {@code page}, {@code size} and {@code sort} values that Spring Data's resolvers would silently replace or
 * fail on: {@code page} must be an integer from 0 to {@code 2^31-1 / max page size} (21,474,836 for 100: JPA
 * cannot express an offset beyond 2^31-1, so no page whose first row lies beyond it is served, whatever the size),
 * {@code size} an integer from 1 to the maximum page size, each given at most once; a {@code sort} value must not
 * contain '%' (Spring Data URI-decodes it a second time and failed with a 500 on a stray '%'; no property name has
 * one); {@code categoryId} (byCategory) an integer, given once. The page bound used to be {@code page × size <= 2^31-1}, which the contract's schema cannot state; the
 * fuzzer found the disagreement.
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
        parse("page", request.getParameterValues("page"), 0, Integer.MAX_VALUE / maxPageSize, 0);
        parse("size", request.getParameterValues("size"), 1, maxPageSize, defaultPageSize);
        // byCategory's categoryId: Spring binds an empty value as null (every item of no category: an empty page)
        // and a repeated one as its first value; the plain API refuses both, and so does this one (issue 22).
        String[] categoryIds = request.getParameterValues("categoryId");
        if (categoryIds != null) {
            parse("categoryId", categoryIds, Long.MIN_VALUE, Long.MAX_VALUE, 0);
        }
        String[] sorts = request.getParameterValues("sort");
        if (sorts != null) {
            for (String sort : sorts) {
                if (sort.indexOf('%') >= 0) {
                    throw new InvalidPagingParameterException(
                            "sort must be a property name, optionally followed by ,asc or ,desc; got '" + sort + "'");
                }
            }
        }
        return true;
    }

    private static long parse(String name, String[] values, long min, long max, long absent) {
        if (values == null) {
            return absent;
        }
        if (values.length > 1) {
            throw new InvalidPagingParameterException(name + " must be given at most once");
        }
        String range = max == Long.MAX_VALUE ? "an integer" : max == Integer.MAX_VALUE ? "an integer >= " + min
                : "an integer from " + min + " to " + max;
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
