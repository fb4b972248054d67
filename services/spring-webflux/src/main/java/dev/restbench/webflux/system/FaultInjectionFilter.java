package dev.restbench.webflux.system;

import dev.restbench.support.FaultInjection;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The regression drill (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT): extra CPU and allocation per request, proportional to
 * what the request's own thread spent, with spring-mvc's burn (bench-support {@link FaultInjection}: begin, the
 * chain, end).
 *
 * <p>What differs: a servlet request owns its worker thread from start to end, so spring-mvc measures the thread
 * between the two. An event loop interleaves many requests, so a thread's CPU time between a request's start and
 * end is not that request's. This filter measures the one segment that is the request's alone: the synchronous run
 * when the chain is subscribed on the HTTP event loop (routing, decoding and validating the body, writing the query
 * to the database, or the whole request when it needs no database), and burns {@code percent} of it on that loop
 * right after, while the query is in flight. It is CPU work, never a blocking call. It leaves out what runs later
 * (decoding the rows, encoding the JSON), so the same percentage is a smaller regression here than in the servlet
 * variants: the drill detects a change within a variant, it does not compare stacks.
 */
class FaultInjectionFilter implements WebFilter {

    private final FaultInjection fault;

    FaultInjectionFilter(FaultInjection fault) {
        this.fault = fault;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return Mono.from(subscriber -> {
            long token = fault.begin();
            chain.filter(exchange).subscribe(subscriber);
            fault.end(token);
        });
    }
}
