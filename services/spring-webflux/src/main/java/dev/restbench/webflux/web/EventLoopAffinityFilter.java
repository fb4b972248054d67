package dev.restbench.webflux.web;

import io.netty.channel.EventLoop;
import org.reactivestreams.Publisher;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;
import reactor.netty.Connection;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Ends every request on the event loop of its own HTTP connection.
 *
 * <p>Why: a request that reads the database completes on the event loop of its database connection (r2dbc-postgresql
 * runs on Reactor Netty's TCP loops), so Reactor Netty writes the response from there and terminates the request's
 * operations in a later task on the HTTP connection's loop. A keep-alive client that sends its next request as soon
 * as it has the response can get it read in between; Reactor Netty (1.3.6 and 1.3.7) then buffers that request
 * ("Buffering keep-alive request, previous ops not yet terminated"), answers it, and in some interleavings never
 * re-arms the read on the connection: the request after it is never answered (reactor/reactor-netty#4361; found here
 * by OperationsEndpointsTest's 300 requests on one connection and by the fuzzer as 30 s read timeouts). Completing
 * the chain on the connection's own loop makes the response write and the termination one task there, so no request
 * can be read in between and the buffering path is never taken. The hop costs one task on that loop per request
 * that finished elsewhere; nothing blocks.
 */
public class EventLoopAffinityFilter implements WebFilter {

    private final Map<EventLoop, Scheduler> schedulers = new ConcurrentHashMap<>();

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        EventLoop loop = eventLoop(exchange);
        if (loop == null) {
            return chain.filter(exchange);
        }
        Scheduler scheduler = schedulers.computeIfAbsent(loop, Schedulers::fromExecutorService);
        Mono<Void> toLoop = Mono.defer(() -> loop.inEventLoop() ? Mono.<Void>empty()
                : Mono.<Void>empty().publishOn(scheduler));
        ServerHttpResponse response = new ServerHttpResponseDecorator(exchange.getResponse()) {

            /** The body (a whole JSON document for this API) is handed to Reactor Netty on the loop. */
            @Override
            public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                return super.writeWith(Flux.from(body).publishOn(scheduler));
            }

            /** A response without a body (204) is completed on the loop. */
            @Override
            public Mono<Void> setComplete() {
                return toLoop.then(Mono.defer(super::setComplete));
            }
        };
        // Errors are answered by the exception handler after the filters: hand it the error on the loop.
        return chain.filter(exchange.mutate().response(response).build())
                .onErrorResume(error -> toLoop.then(Mono.error(error)))
                .then(toLoop);
    }

    private static EventLoop eventLoop(ServerWebExchange exchange) {
        Object request = ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest());
        return request instanceof Connection connection ? connection.channel().eventLoop() : null;
    }
}
