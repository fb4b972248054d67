package dev.restbench.jersey.jetty;

import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * CONNECT asks for a tunnel, which this API never offers. Jetty hands it to the application like any method, and
 * Jersey would match "CONNECT host:port" against the root path and answer 404; the contract (and Grizzly in jersey)
 * answers 405, as a problem detail through {@link ProblemErrorHandler}.
 */
public final class RejectConnect extends Handler.Wrapper {

    public RejectConnect(Handler next) {
        super(next);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (HttpMethod.CONNECT.is(request.getMethod())) {
            Response.writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405);
            return true;
        }
        return super.handle(request, response, callback);
    }
}
