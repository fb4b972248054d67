package dev.restbench.jersey.jetty;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.jersey.api.Problem;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Errors Jetty answers itself, before Jersey sees the request (unparseable URI, bad headers, ambiguous paths), as
 * problem details like every other error of the API, instead of Jetty's HTML page.
 */
public final class ProblemErrorHandler extends ErrorHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus() >= 400 ? response.getStatus() : HttpStatus.BAD_REQUEST_400;
        Problem problem = new Problem("about:blank", HttpStatus.getMessage(status), status,
                status < 500 ? "the request is malformed" : "the server failed to handle the request", null, null);
        byte[] body;
        try {
            body = JSON.writeValueAsBytes(problem);
        } catch (JsonProcessingException e) {
            callback.failed(e);
            return true;
        }
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, Problem.MEDIA_TYPE);
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }
}
