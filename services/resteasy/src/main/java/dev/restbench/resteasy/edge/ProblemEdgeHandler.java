package dev.restbench.resteasy.edge;

import dev.restbench.jersey.http.HostHeader;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.URLDecodingHandler;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;
import java.nio.charset.StandardCharsets;

/**
 * The first handler of every request, on Undertow's IO thread, before the servlet layer and RESTEasy:
 * <ul>
 *   <li>CONNECT asks for a tunnel this API never offers: 405, as the contract (and Grizzly in jersey) answers,
 *       rather than RESTEasy matching "CONNECT host:port" against a resource.</li>
 *   <li>A request URI with a malformed percent-escape ({@code /items/%zz}): 400 as a problem detail. Undertow would
 *       refuse it while parsing, with a bare 400 and a closed connection, so the listener runs with
 *       {@code DECODE_URL} off and this handler decodes path and query itself (Undertow's {@link URLDecodingHandler},
 *       UTF-8) once it has checked every escape, as jersey's WellFormedUriHandler checks the URI for Jersey.</li>
 *   <li>A Host header that cannot be the authority of a URI ({@code Host: "}): 400 as a problem detail (RFC 9112 asks
 *       for a 400). RESTEasy builds the request's URI from it lazily and would fail wherever it is first read (in
 *       ProblemMapper, for the problem's {@code instance}), as a 500.</li>
 *   <li>A request target that is not a path: {@code OPTIONS *} is answered for the server as a whole (200 with
 *       {@code Allow}), any other method with {@code *} is a 400 problem detail. The servlet layer would fail to map
 *       it to a servlet (a 500).</li>
 *   <li>Any error the layers below end without writing a body (none is expected: RESTEasy answers through
 *       ProblemMapper, the servlet layer through {@link ProblemSendErrorFilter}) still gets a problem detail.</li>
 * </ul>
 */
public final class ProblemEdgeHandler implements HttpHandler {

    /** The methods the API has at all, for {@code OPTIONS *}. */
    private static final String SERVER_METHODS = "DELETE, GET, HEAD, OPTIONS, POST, PUT";

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
        if (!exchange.getRequestPath().startsWith("/")) {
            if (exchange.getRequestMethod().equals(Methods.OPTIONS) && exchange.getRequestPath().equals("*")) {
                exchange.getResponseHeaders().put(Headers.ALLOW, SERVER_METHODS);
                exchange.getResponseHeaders().put(Headers.CONTENT_LENGTH, 0);
                exchange.endExchange();
            } else {
                ProblemBodies.send(exchange, StatusCodes.BAD_REQUEST, "the request target must be a path");
            }
            return;
        }
        if (!HostHeader.valid(exchange.getRequestHeaders().getFirst(Headers.HOST))) {
            ProblemBodies.send(exchange, StatusCodes.BAD_REQUEST, "the Host header is not a valid host[:port]");
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
