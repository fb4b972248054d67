package dev.restbench.spring;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.servlet.DispatcherServlet;

import java.io.IOException;

/**
 * Spring's DispatcherServlet with TRACE dispatched like any other method. Tomcat refuses TRACE itself (405);
 * Jetty and Undertow leave it to the servlet, whose default echoes the request (200, message/http), and
 * FrameworkServlet's dispatch-trace option still appends that echo after Spring's own answer. Here TRACE is a method
 * no endpoint supports: Spring's 405 problem with the path's Allow, and nothing after it. Used by spring-mvc-jetty
 * and spring-mvc-boot3-undertow in place of Boot's dispatcherServlet bean.
 */
public class TraceDispatcherServlet extends DispatcherServlet {

    @Override
    protected void doTrace(HttpServletRequest request, HttpServletResponse response)
            throws ServletException, IOException {
        processRequest(request, response);
    }
}
