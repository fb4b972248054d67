package dev.restbench.resteasy.edge;

import dev.restbench.jersey.api.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;

/**
 * {@code sendError} as a problem detail instead of Undertow's HTML error page. RESTEasy calls it itself when it cannot
 * even build the request's URI or headers (a 400, before any exception mapper could run).
 */
public final class ProblemSendErrorFilter extends HttpFilter {

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        chain.doFilter(request, new HttpServletResponseWrapper(response) {
            @Override
            public void sendError(int status) throws IOException {
                sendError(status, null);
            }

            @Override
            public void sendError(int status, String message) throws IOException {
                if (isCommitted()) {
                    super.sendError(status, message);
                    return;
                }
                resetBuffer();
                setStatus(status);
                setContentType(Problem.MEDIA_TYPE);
                byte[] body = ProblemBodies.json(status, null, request.getRequestURI());
                setContentLength(body.length);
                getOutputStream().write(body);
                flushBuffer();
            }
        });
    }
}
