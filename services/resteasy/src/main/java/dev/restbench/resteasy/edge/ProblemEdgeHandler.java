package dev.restbench.resteasy.edge;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.URLDecodingHandler;
import java.nio.charset.StandardCharsets;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;

/**
 * The first handler of every request, on Undertow's IO thread, before the servlet layer and RESTEasy:
 * <ul>
 *   <li>CONNECT asks for a tunnel this API never offers: 405, as the contract (and Grizzly in jersey) answers,
 *       rather than RESTEasy matching "CONNECT host:port" against a resource.</li>
 *   <li>A request URI with a malformed percent-escape ({@code /items/%zz}): 400 as a problem detail. Undertow would
 *       refuse it while parsing, with a bare 400 and a closed connection, so the listener runs with
 *       {@code DECODE_URL} off and this handler decodes path and query itself (Undertow's {@link URLDecodingHandler},
 *       UTF-8) once it has checked every escape, as jersey's WellFormedUriHandler checks the URI for Jersey.</li>
 *   <li>Any error the layers below end without writing a body (none is expected: RESTEasy answers through
 *       ProblemMapper, the servlet layer through {@link ProblemSendErrorFilter}) still gets a problem detail.</li>
 * </ul>
 */
public final class ProblemEdgeHandler implements HttpHandler {

    private final HttpHandler next;

    public ProblemEdgeHandler(HttpHandler next) {
        this.next = new URLDecodingHandler(next, StandardCharsets.UTF_8.name());
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        if (exchange.getRequestMethod().equals(Methods.CONNECT)) {
            ProblemBodies.send(exchange, StatusCodes.METHOD_NOT_ALLOWED, "CONNECT is not supported");
            return;
        }
        if (!wellEscaped(exchange.getRequestURI()) || !wellEscaped(exchange.getQueryString())) {
            ProblemBodies.send(exchange, StatusCodes.BAD_REQUEST, "the request URI has a malformed percent-escape");
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

    /** Every '%' starts an escape of two hex digits (what decoding needs; the parser already refused raw bytes). */
    static boolean wellEscaped(String text) {
        if (text == null) {
            return true;
        }
        for (int i = text.indexOf('%'); i >= 0; i = text.indexOf('%', i + 3)) {
            if (i + 2 >= text.length() || !isHex(text.charAt(i + 1)) || !isHex(text.charAt(i + 2))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
