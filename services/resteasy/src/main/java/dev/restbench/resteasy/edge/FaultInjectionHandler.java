package dev.restbench.resteasy.edge;

import dev.restbench.support.FaultInjection;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;

/**
 * The regression drill (FAULT_CPU_PERCENT) on Undertow: burns extra CPU in proportion to the CPU the request's
 * handling took on its worker thread, RESTEasy and JSON writing included, like jersey's Grizzly FaultInjectionHandler.
 * Undertow calls handlers on an IO thread; this one first moves the exchange to a worker thread, where the servlet
 * layer then runs the whole request synchronously inside {@link #handleRequest}. Installed only when the drill is on.
 */
public final class FaultInjectionHandler implements HttpHandler {

    private final HttpHandler next;
    private final FaultInjection faultInjection;

    public FaultInjectionHandler(HttpHandler next, FaultInjection faultInjection) {
        this.next = next;
        this.faultInjection = faultInjection;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (exchange.isInIoThread()) {
            exchange.dispatch(this);
            return;
        }
        long token = faultInjection.begin();
        try {
            next.handleRequest(exchange);
        } finally {
            faultInjection.end(token);
        }
    }
}
