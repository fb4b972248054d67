package dev.restbench.datarest;

import dev.restbench.support.FaultInjection;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/** The regression drill: after each request, the faults of bench-support's FaultInjection (sized on the process's cost per request). */
final class FaultInjectionFilter extends OncePerRequestFilter {

    private final FaultInjection faultInjection;

    FaultInjectionFilter(FaultInjection faultInjection) {
        this.faultInjection = faultInjection;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long begin = faultInjection.begin();
        try {
            chain.doFilter(request, response);
        } finally {
            faultInjection.end(begin);
        }
    }
}
