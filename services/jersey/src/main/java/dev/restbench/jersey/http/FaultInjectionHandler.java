package dev.restbench.jersey.http;

import dev.restbench.support.FaultInjection;
import org.glassfish.grizzly.http.server.HttpHandler;
import org.glassfish.grizzly.http.server.Request;
import org.glassfish.grizzly.http.server.Response;

/**
 * The regression drill (FAULT_CPU_PERCENT): burns extra CPU in proportion to the process's CPU per request.
 * Wraps the whole request handling on the worker thread, JSON writing included, as the Spring variants' servlet
 * filters wrap their whole chain, so "5 %" is 5 % of the same work in every variant. Installed only when the drill
 * is enabled, so a normal run pays nothing for it.
 */
public final class FaultInjectionHandler extends HttpHandler {

    private final HttpHandler next;
    private final FaultInjection faultInjection;

    public FaultInjectionHandler(HttpHandler next, FaultInjection faultInjection) {
        this.next = next;
        this.faultInjection = faultInjection;
    }

    @Override
    public void service(Request request, Response response) throws Exception {
        long token = faultInjection.begin();
        try {
            next.service(request, response);
        } finally {
            faultInjection.end(token);
        }
    }

    @Override
    public void start() {
        next.start();
    }

    @Override
    public void destroy() {
        next.destroy();
    }
}
