package dev.restbench.webflux.web;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Refuses request bodies above MAX_BODY_BYTES with 413. A declared Content-Length above the limit is refused before
 * anything is read; a body without one (chunked) is counted as its buffers arrive and fails as soon as the limit is
 * passed, so nothing is ever buffered without bound. Both end in {@link BodyTooLargeException}, which
 * {@link ProblemExceptionHandler} answers. What the client still sends of a refused body is dropped by Reactor Netty
 * (its HTTP codec frames the body; content that arrives after the response is discarded), so the connection stays
 * usable for the next request.
 */
public class BodySizeLimitFilter implements WebFilter {

    private final long maxBytes;

    public BodySizeLimitFilter(long maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("MAX_BODY_BYTES must be >= 0, got " + maxBytes);
        }
        this.maxBytes = maxBytes;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (request.getHeaders().getContentLength() > maxBytes) {
            return Mono.error(new BodyTooLargeException(maxBytes));
        }
        return chain.filter(exchange.mutate().request(new LimitedRequest(request, maxBytes)).build());
    }

    private static final class LimitedRequest extends ServerHttpRequestDecorator {

        private final long maxBytes;

        LimitedRequest(ServerHttpRequest delegate, long maxBytes) {
            super(delegate);
            this.maxBytes = maxBytes;
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return Flux.defer(() -> {
                AtomicLong count = new AtomicLong();
                return super.getBody().handle((buffer, sink) -> {
                    if (count.addAndGet(buffer.readableByteCount()) > maxBytes) {
                        DataBufferUtils.release(buffer);
                        sink.error(new BodyTooLargeException(maxBytes));
                    } else {
                        sink.next(buffer);
                    }
                });
            });
        }
    }
}
