package dev.restbench.jersey.http;

import java.io.IOException;
import org.glassfish.grizzly.filterchain.BaseFilter;
import org.glassfish.grizzly.filterchain.FilterChainBuilder;
import org.glassfish.grizzly.filterchain.FilterChainContext;
import org.glassfish.grizzly.filterchain.FilterChainEvent;
import org.glassfish.grizzly.filterchain.NextAction;
import org.glassfish.grizzly.http.HttpEvents;
import org.glassfish.grizzly.http.HttpHeader;
import org.glassfish.grizzly.http.HttpServerFilter;
import org.glassfish.grizzly.http.server.AddOn;
import org.glassfish.grizzly.http.server.NetworkListener;
import org.glassfish.grizzly.http.util.Header;

/**
 * Serves an HTTP/1.1 request that offers {@code Upgrade: h2c} as plain HTTP/1.1, as RFC 9110 allows.
 *
 * <p>Why: java.net.http.HttpClient offers h2c on every request by default. Grizzly without its HTTP/2 filters
 * marks such a request as "upgrading", stops framing its body and headers, and nobody clears the mark
 * (glassfish-grizzly#1972, jersey#5812): POST/PUT bodies are never delivered (30 s read timeout) and responses
 * lose Content-Type. This filter, placed right after the HTTP codec, declines the upgrade as soon as it is seen.
 */
public final class IgnoreH2cUpgrade implements AddOn {

    @Override
    public void setup(NetworkListener listener, FilterChainBuilder builder) {
        int codec = builder.indexOfType(HttpServerFilter.class);
        builder.add(codec + 1, new DeclineFilter());
    }

    private static final class DeclineFilter extends BaseFilter {

        @Override
        public NextAction handleEvent(FilterChainContext ctx, FilterChainEvent event) throws IOException {
            if (event.type() == HttpEvents.IncomingHttpUpgradeEvent.TYPE) {
                HttpHeader header = ((HttpEvents.IncomingHttpUpgradeEvent) event).getHttpHeader();
                if ("h2c".equalsIgnoreCase(header.getUpgrade().trim())) {
                    header.getUpgradeDC().recycle();
                    header.getHeaders().removeHeader(Header.Upgrade);
                    header.setIgnoreContentModifiers(false);
                }
            }
            return ctx.getInvokeAction();
        }
    }
}
