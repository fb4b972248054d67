package dev.restbench.springmvc.system;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * What Tomcat does at the connection's edge and Jetty does not, so that spring-mvc behaves the same on both.
 *
 * <ul>
 *   <li>CONNECT (the proxy method) sent to this origin server is a 400, as ProblemReportValve makes it on Tomcat;
 *       Jetty hands it to Spring, which answered 404.</li>
 *   <li>A request body the application did not read (a 405 or 415 answered before the body) is read to its end
 *       here, up to {@link #SWALLOW_LIMIT}, as Tomcat swallows it (its maxSwallowSize, 2 MB). Jetty instead closes
 *       the connection after the response without saying so, and a client that reuses it (Java's HttpClient, a
 *       load generator's pool) fails its next request on a connection that is gone.</li>
 * </ul>
 */
class JettyEdgeFilter extends OncePerRequestFilter {

    static final long SWALLOW_LIMIT = 2L * 1024 * 1024;

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if ("CONNECT".equals(request.getMethod())) {
            response.sendError(HttpServletResponse.SC_BAD_REQUEST);
            return;
        }
        try {
            chain.doFilter(request, response);
        } finally {
            swallow(request);
        }
    }

    private static void swallow(HttpServletRequest request) {
        long declared = request.getContentLengthLong();
        if (declared == 0 || declared > SWALLOW_LIMIT) {
            return;
        }
        try {
            ServletInputStream in = request.getInputStream();
            byte[] buffer = new byte[8192];
            long read = 0;
            for (int n; read <= SWALLOW_LIMIT && (n = in.read(buffer)) != -1; ) {
                read += n;
            }
        } catch (IllegalStateException | IOException e) {
            // Read as a reader already, or the client is gone: Jetty decides about the connection then.
        }
    }
}
