package dev.restbench.webflux.system;

import dev.restbench.support.FaultInjection;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The regression drill (FAULT_CPU_PERCENT): extra CPU per request, proportional to the request's own CPU time, with
 * the same burn as spring-mvc's FaultInjectionFilter (bench-support {@link FaultInjection}).
 *
 * <p>What differs: a servlet request owns its worker thread from start to end, so spring-mvc measures the thread's
 * CPU time between the two. An event loop interleaves many requests, so the CPU time of a thread between a request's
 * start and end is not that request's. This filter measures the one segment that is the request's alone: the
 * synchronous run when the chain is subscribed on the HTTP event loop (routing, decoding and validating the body,
 * writing the query, or the whole request when it needs no database). The burn, {@code percent} of that segment,
 * happens when the request's chain terminates (before an error response is written), on whichever event loop
 * finishes it. It is CPU work, never a blocking call. It undercounts the request's CPU (the decoding of the
 * database's answer and the JSON encoding run later, interleaved with other requests), so a drill's "10 %" is a
 * smaller regression here than in the servlet variants; the drill detects a change, it does not compare stacks.
 */
class FaultInjectionFilter implements WebFilter {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static final int SUBSCRIBING = 0;
    private static final int SUBSCRIBED = 1;
    private static final int TERMINATED_EARLY = 2;

    private final FaultInjection fault;

    FaultInjectionFilter(FaultInjection fault) {
        this.fault = fault;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        return Mono.from(subscriber -> {
            // SUBSCRIBING → SUBSCRIBED (the segment is known), or SUBSCRIBING → TERMINATED_EARLY (the chain ended
            // before subscribe returned: the thread that runs this lambda burns when subscribe returns).
            AtomicInteger state = new AtomicInteger(SUBSCRIBING);
            long[] segment = {0};
            long token = fault.begin();
            chain.filter(exchange)
                    .doOnTerminate(() -> {
                        if (!state.compareAndSet(SUBSCRIBING, TERMINATED_EARLY)) {
                            // begin() here minus the segment: end() burns percent of the segment.
                            fault.end(fault.begin() - segment[0]);
                        }
                    })
                    .subscribe(subscriber);
            segment[0] = THREADS.getCurrentThreadCpuTime() - token;
            if (!state.compareAndSet(SUBSCRIBING, SUBSCRIBED)) {
                fault.end(token);
            }
        });
    }
}
