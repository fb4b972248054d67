package dev.restbench.springmvc.system;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Jetty's error pages as RFC 9457 problem details, whatever the request accepts: the server-level handler (bad
 * messages, requests outside any context) and the servlet context's (errors sent as a status only). Errors Spring
 * answers with a body never get here. As spring-mvc on Tomcat (ProblemReportValve), a CONNECT sent to this origin
 * server is a 400, never a 5xx.
 */
final class ProblemErrorHandlers {

    private static final String PROBLEM_JSON = "application/problem+json";

    private ProblemErrorHandlers() {
    }

    static ByteBuffer body(int status) {
        String title = HttpStatus.getMessage(status);
        return BufferUtil.toBuffer("{\"type\":\"about:blank\",\"title\":\"" + (title == null ? "Error" : title)
                + "\",\"status\":" + status + "}", StandardCharsets.UTF_8);
    }

    static boolean writeProblem(Request request, Response response, Callback callback, int code) {
        int status = code == HttpStatus.NOT_IMPLEMENTED_501 && "CONNECT".equals(request.getMethod())
                ? HttpStatus.BAD_REQUEST_400 : code;
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, PROBLEM_JSON);
        response.write(true, body(status), callback);
        return true;
    }

    /** On the server: also the bad-message answers Jetty writes before a request exists. */
    static final class Server extends org.eclipse.jetty.server.handler.ErrorHandler {
        /** Jetty writes error bodies for GET, POST and HEAD only; the contract wants a problem for every method. */
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                                                     String contentType, List<Charset> charsets, int code,
                                                     String message, Throwable cause) {
            return writeProblem(request, response, callback, code);
        }

        @Override
        public ByteBuffer badMessageError(int status, String reason, HttpFields.Mutable fields) {
            fields.put(new HttpField(HttpHeader.CONTENT_TYPE, PROBLEM_JSON));
            return body(status);
        }
    }

    /** In the servlet context (Spring Boot's WebAppContext). */
    static final class Servlet extends org.eclipse.jetty.ee11.servlet.ErrorHandler {
        /** Jetty writes error bodies for GET, POST and HEAD only; the contract wants a problem for every method. */
        @Override
        public boolean errorPageForMethod(String method) {
            return true;
        }

        @Override
        protected boolean generateAcceptableResponse(Request request, Response response, Callback callback,
                                                     String contentType, List<Charset> charsets, int code,
                                                     String message, Throwable cause) {
            return writeProblem(request, response, callback, code);
        }
    }
}
