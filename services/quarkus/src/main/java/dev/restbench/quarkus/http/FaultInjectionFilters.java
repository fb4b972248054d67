package dev.restbench.quarkus.http;

import dev.restbench.support.FaultInjection;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * The regression drill (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT): extra work in proportion to what each request's
 * threads spent. A Quarkus request runs on two threads: the Vert.x event loop (HTTP parsing, routing, the start of
 * Quarkus REST's handler chain) and, for these blocking endpoints, a worker thread (filters, the resource method, JSON
 * writing, the end of the response). Each part is measured and charged on its own thread, so the percentage covers
 * the whole request as the jersey and Spring variants' wrappers do. When the drill is off, nothing is installed on
 * the event loop and the worker filter returns at once.
 */
@Singleton
public class FaultInjectionFilters {

    private final FaultInjection faults = FaultInjection.fromEnvironment();

    void install(@Observes Router router) {
        if (faults.enabled()) {
            router.route().order(Integer.MIN_VALUE + 1).handler(this::eventLoopPart);
        }
    }

    private void eventLoopPart(RoutingContext context) {
        long token = faults.begin();
        try {
            context.next();
        } finally {
            faults.end(token);
        }
    }

    /** Runs on the worker thread before the resource method; charged when the response ends on that thread. */
    @ServerRequestFilter
    public void workerPart(RoutingContext context) {
        if (!faults.enabled()) {
            return;
        }
        Thread worker = Thread.currentThread();
        long token = faults.begin();
        context.addBodyEndHandler(ignored -> {
            if (Thread.currentThread() == worker) {
                faults.end(token);
            }
        });
    }
}
