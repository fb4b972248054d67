package dev.restbench.jersey.http;

import java.net.URI;
import java.net.URISyntaxException;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;

/**
 * Answers 400 for a request URI that is not a valid URI (e.g. {@code /items/%zz}) or a Host header that cannot be
 * its authority ({@link HostHeader}), and hands every other request to Jersey. Jersey's Grizzly container fails on
 * either with a 500: bad input must never be a 5xx.
 */
public final class WellFormedUriHandler extends HttpHandler {

    private final HttpHandler jersey;

    public WellFormedUriHandler(HttpHandler jersey) {
        this.jersey = jersey;
    }

    @Override
    public void service(Request request, Response response) throws Exception {
        if (!HostHeader.valid(request.getHeader("Host"))) {
            response.sendError(400, "the Host header is not a valid host[:port]");
            return;
        }
        String query = request.getQueryString();
        try {
            new URI(query == null ? request.getRequestURI() : request.getRequestURI() + "?" + query);
        } catch (URISyntaxException e) {
            response.sendError(400);
            return;
        }
        jersey.service(request, response);
    }

    @Override
    public void start() {
        jersey.start();
    }

    @Override
    public void destroy() {
        jersey.destroy();
    }
}
