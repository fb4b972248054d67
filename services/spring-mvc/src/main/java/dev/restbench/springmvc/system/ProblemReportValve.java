package dev.restbench.springmvc.system;

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
 * header above the size limit): a problem detail instead of Tomcat's HTML page. Errors Spring handles never get
 * here, because they already wrote a body.
 */
public class ProblemReportValve extends ErrorReportValve {

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        // The same guards as ErrorReportValve: only errors, only once, only when nothing was written yet.
        if (status < 400 || response.getContentWritten() > 0 || !response.setErrorReported()) {
            return;
        }
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
