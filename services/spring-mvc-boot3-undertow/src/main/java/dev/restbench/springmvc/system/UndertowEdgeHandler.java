package dev.restbench.springmvc.system;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.URLDecodingHandler;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import io.undertow.util.StatusCodes;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * The first handler of every request, on Undertow's IO thread, before the servlet layer:
 * <ul>
 *   <li>A Content-Length above Undertow's own entity limit: 413 at once (it was a 500 when first read).</li>
 *   <li>CONNECT (the proxy method) sent to this origin server is a 400, as on Tomcat (spring-mvc's valve) and Jetty.
 *       The servlet layer would answer 501 (HttpServlet's unknown method), and for {@code CONNECT host:port} it has no
 *       path to map.</li>
 *   <li>A request target that is not a path ({@code *}, an authority): 400. The servlet layer maps paths only.</li>
 *   <li>A request URI with a malformed percent-escape ({@code /items/%zz}): 400. Undertow's parser would refuse it
 *       with a bare 400 and close the connection (Tomcat: a 400 problem through spring-mvc's valve), so the listener
 *       runs with {@code server.undertow.decode-url=false} and this handler decodes path and query with Undertow's own
 *       {@link URLDecodingHandler} (UTF-8) once every escape is well-formed, as services/resteasy does.</li>
 *   <li>Any error a layer below ends without writing a body gets a problem detail.</li>
 * </ul>
 */
final class UndertowEdgeHandler implements HttpHandler {

    /** A '%' not followed by two hex digits. */
    private static final Pattern MALFORMED_ESCAPE = Pattern.compile("%(?![0-9A-Fa-f]{2})");

    private final HttpHandler next;

    UndertowEdgeHandler(HttpHandler next) {
        this.next = new URLDecodingHandler(next, StandardCharsets.UTF_8.name());
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        long maxEntitySize = exchange.getMaxEntitySize();
        if (maxEntitySize > 0 && exchange.getRequestContentLength() > maxEntitySize) {
            // Undertow's own limit (10 MB) fails the first read of such a body as a 500; MAX_BODY_BYTES, far
            // below, is the application's (BodySizeLimitFilter), reached only when this one is not. Refused from
            // the header, before any read, so no 100 Continue invites the body; the connection closes, as
            // the unread body is still on it.
            exchange.setPersistent(false);
            send(exchange, StatusCodes.REQUEST_ENTITY_TOO_LARGE);
            return;
        }
        if (exchange.getRequestMethod().equals(Methods.CONNECT) || !exchange.getRequestPath().startsWith("/")) {
            send(exchange, StatusCodes.BAD_REQUEST);
            return;
        }
        if (malformed(exchange.getRequestURI()) || malformed(exchange.getQueryString())) {
            send(exchange, StatusCodes.BAD_REQUEST);
            return;
        }
        exchange.addDefaultResponseListener(done -> {
            if (done.isResponseStarted() || done.getStatusCode() < 400
                    || done.getRequestMethod().equals(Methods.HEAD)) {
                return false;
            }
            send(done, done.getStatusCode());
            return true;
        });
        next.handleRequest(exchange);
    }

    private static boolean malformed(String raw) {
        return raw != null && raw.indexOf('%') >= 0 && MALFORMED_ESCAPE.matcher(raw).find();
    }

    private static void send(HttpServerExchange exchange, int status) {
        exchange.setStatusCode(status);
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Problems.MEDIA_TYPE);
        exchange.getResponseSender().send(ByteBuffer.wrap(Problems.body(status)));
    }
}
