package dev.restbench.springmvc.system;

import dev.restbench.support.FaultInjection;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/** The regression drill (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT): extra CPU and allocation after each request, proportional to the process's cost per request. */
class FaultInjectionFilter extends OncePerRequestFilter {

    private final FaultInjection fault;

    FaultInjectionFilter(FaultInjection fault) {
        this.fault = fault;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long token = fault.begin();
        try {
            chain.doFilter(request, response);
        } finally {
            fault.end(token);
        }
    }
}
