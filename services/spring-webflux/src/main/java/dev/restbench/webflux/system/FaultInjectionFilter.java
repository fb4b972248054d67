package dev.restbench.webflux.system;

import dev.restbench.support.FaultInjection;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The regression drill (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT): extra CPU and allocation per request, sized on the
 * process's cost per request as in every JVM variant (bench-support {@link FaultInjection}: begin, the chain, end).
 *
 * <p>What differs: a servlet request owns its worker thread from start to end. An event loop interleaves many
 * requests, so the fault is added in the one segment that is the request's alone: right after the synchronous run
 * when the chain is subscribed on the HTTP event loop (routing, decoding and validating the body, writing the query
 * to the database), on that loop, while the query is in flight. It is CPU work, never a blocking call. Until the
 * process's cost is known (its first second), the fault is sized on that segment's own CPU time, which leaves out
 * what runs later (decoding the rows, encoding the JSON).
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
