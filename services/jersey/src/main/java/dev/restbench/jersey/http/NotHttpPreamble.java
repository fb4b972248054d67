package dev.restbench.jersey.http;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.glassfish.grizzly.Buffer;
import org.glassfish.grizzly.Connection;
import org.glassfish.grizzly.Grizzly;
import org.glassfish.grizzly.attributes.Attribute;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.server.AddOn;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.memory.Buffers;

/**
 * A connection whose first byte cannot start a request line (a TLS ClientHello on the plain port, any binary
 * protocol) is answered 400 and closed at once. Grizzly's request-line parser looks for the spaces of
 * "method target version" across line ends, so such bytes followed by one CRLF left it waiting for more until the
 * idle timeout: a connection held per stray client (found by probing the framing, issue 22).
 */
public final class NotHttpPreamble implements AddOn {

    private static final Attribute<Boolean> SEEN = Grizzly.DEFAULT_ATTRIBUTE_BUILDER
            .createAttribute(NotHttpPreamble.class.getName() + ".seen");

    private static final String PROBLEM =
            "{\"type\":\"about:blank\",\"title\":\"Bad Request\",\"status\":400,\"detail\":\"not an HTTP request\"}";
    private static final byte[] BAD_REQUEST = ("HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
            + "Connection: close\r\nContent-Length: " + PROBLEM.length() + "\r\n\r\n" + PROBLEM)
            .getBytes(StandardCharsets.US_ASCII);

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        builder.add(builder.indexOfType(HttpServerFilter.class), new FirstByteCheck());
    }

    /** RFC 9110 tchar, and the CR/LF a client may send before a request line (RFC 9112 §2.2). */
    private static boolean canStartRequest(byte b) {
        return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '\r' || b == '\n'
                || "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
    }

    private static final class FirstByteCheck extends BaseFilter {

        @Override
        public NextAction handleRead(FilterChainContext ctx) throws IOException {
            Connection<?> connection = ctx.getConnection();
            if (SEEN.isSet(connection) || !(ctx.getMessage() instanceof Buffer buffer) || !buffer.hasRemaining()) {
                return ctx.getInvokeAction();
            }
            SEEN.set(connection, Boolean.TRUE);
            if (canStartRequest(buffer.get(buffer.position()))) {
                return ctx.getInvokeAction();
            }
            ctx.write(Buffers.wrap(ctx.getMemoryManager(), BAD_REQUEST));
            connection.closeSilently();
            return ctx.getStopAction();
        }
    }
}
