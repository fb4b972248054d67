package dev.restbench.springmvc.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * {@code sendError} as a problem detail. Undertow writes an HTML page for an error sent with a message (with
 * Boot's /error page off, as in spring-mvc) and nothing for one without; Tomcat's answer to both is spring-mvc's
 * ProblemReportValve. Errors Spring answers with a body never call it.
 */
class ProblemSendErrorFilter extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
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
                setContentType(Problems.MEDIA_TYPE);
                byte[] body = Problems.body(status);
                setContentLength(body.length);
                getOutputStream().write(body);
                flushBuffer();
            }
        });
    }
}
