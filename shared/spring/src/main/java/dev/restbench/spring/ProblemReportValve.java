package dev.restbench.spring;

import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.ActionCode;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tomcat's own error report, for requests it refuses before Spring sees them (a malformed or encoded-slash URI, a
 * header above the size limit, a query string that does not decode) and for errors only sent as a status
 * ({@code sendError}: TRACE's 405, a 406 without a body): a problem detail instead of Tomcat's HTML page. Errors
 * Spring answers with a body never get here.
 *
 * <p>One status is changed: Tomcat answers CONNECT with 501 before any application code runs. CONNECT is the
 * proxy method (its target must be {@code host:port}, RFC 9112 section 3.2.3); sent to this origin server it is a
 * bad request, and the API never answers 5xx for what a client sent.
 */
public class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        // The same guards as ErrorReportValve: only errors, only once, only when nothing was written yet.
        if (response.getStatus() < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
        if (response.getStatus() == HttpStatus.NOT_IMPLEMENTED.value() && "CONNECT".equals(request.getMethod())) {
            response.setStatus(HttpStatus.BAD_REQUEST.value());
        }
        int status = response.getStatus();
        AtomicBoolean ioAllowed = new AtomicBoolean(true);
        response.getCoyoteResponse().action(ActionCode.IS_IO_ALLOWED, ioAllowed);
        if (!ioAllowed.get()) {
            return;
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? "Error" : known.getReasonPhrase();
        try {
            response.setContentType(MediaType.APPLICATION_PROBLEM_JSON_VALUE);
            response.setCharacterEncoding(StandardCharsets.UTF_8.name());
            Writer writer = response.getReporter();
            if (writer != null) {
                writer.write("{\"type\":\"about:blank\",\"title\":\"" + title + "\",\"status\":" + status + "}");
                response.finishResponse();
            }
        } catch (IOException | IllegalStateException e) {
            // The client is gone or the response cannot take a body: nothing left to report to.
        }
    }
}
