package dev.restbench.resteasy.edge;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;

/**
 * The first handler of every request, on Undertow's IO thread, before the servlet layer and RESTEasy:
 * <ul>
 *   <li>CONNECT asks for a tunnel this API never offers: 405, as the contract (and Grizzly in jersey) answers,
 *       rather than RESTEasy matching "CONNECT host:port" against a resource.</li>
 *   <li>Any error the layers below end without writing a body (none is expected: RESTEasy answers through
 *       ProblemMapper, the servlet layer through {@link ProblemSendErrorFilter}) still gets a problem detail.</li>
 * </ul>
 */
public final class ProblemEdgeHandler implements HttpHandler {

    private final HttpHandler next;

    public ProblemEdgeHandler(HttpHandler next) {
        this.next = next;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (exchange.getRequestMethod().equals(Methods.CONNECT)) {
            ProblemBodies.send(exchange, StatusCodes.METHOD_NOT_ALLOWED, "CONNECT is not supported");
            return;
        }
        exchange.addDefaultResponseListener(done -> {
            if (done.isResponseStarted() || done.getStatusCode() < 400
                    || done.getRequestMethod().equals(Methods.HEAD)) {
                return false;
            }
            ProblemBodies.send(done, done.getStatusCode(), null);
            return true;
        });
        next.handleRequest(exchange);
    }
}
