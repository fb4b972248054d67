package dev.restbench.jersey.http;

import java.io.IOException;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpContent;
import org.glassfish.grizzly.http.HttpRequestPacket;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.Method;
import org.glassfish.grizzly.http.server.AddOn;
import org.glassfish.grizzly.http.server.NetworkListener;

/**
 * Request bodies on methods that define no meaning for one, framed the way HTTP/1.1 says: by Content-Length or
 * chunked encoding, whatever the method (RFC 9112, section 6.3). Found by the fuzzer (FuzzTest).
 *
 * <ul>
 *   <li>GET, HEAD, DELETE, OPTIONS with a body: Grizzly answers 400 without a body by default; like Tomcat, they
 *       are served and the body is read and ignored.</li>
 *   <li>TRACE (and CONNECT) with a body: Grizzly does not read a body for them at all, so the body's bytes were
 *       parsed as the next request on the connection (a "505 HTTP Version Not Supported" for the request after it,
 *       or worse, a smuggled request). Grizzly cannot be told to read it, so the connection is closed after the
 *       answer instead: what was left unread dies with it.</li>
 *   <li>Content-Length and Transfer-Encoding: chunked together (how requests are smuggled past a proxy that
 *       reads the other framing): Grizzly lets chunked win, as RFC 9112 §6.1 allows, but kept the connection
 *       open, which the same section forbids. Grizzly drops the Content-Length while parsing and leaves no trace
 *       of it, so every chunked request closes its connection after the answer: a client that sends chunked
 *       bodies reconnects (the benchmarks' load sends Content-Length), as on Quarkus.</li>
 * </ul>
 */
public final class RequestBodyFraming implements AddOn {

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        int codec = builder.indexOfType(HttpServerFilter.class);
        ((HttpServerFilter) builder.get(codec)).setAllowPayloadForUndefinedHttpMethods(true);
        builder.add(codec + 1, new CloseAfterUnreadBody());
    }

    private static final class CloseAfterUnreadBody extends BaseFilter {

        @Override
        public NextAction handleRead(FilterChainContext ctx) throws IOException {
            if (ctx.getMessage() instanceof HttpContent content
                    && content.getHttpHeader() instanceof HttpRequestPacket request
                    && (request.isChunked() || request.getContentLength() > 0
                    && request.getMethod().getPayloadExpectation() == Method.PayloadExpectation.NOT_ALLOWED)) {
                request.getProcessingState().setKeepAlive(false);
            }
            return ctx.getInvokeAction();
        }
    }
}
