package dev.restbench.quarkus.http;

import dev.restbench.support.FaultInjection;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * The regression drill (FAULT_CPU_PERCENT, FAULT_ALLOC_PERCENT) for non-blocking endpoints. services/quarkus charges
 * two parts, the event loop's and the worker's; here the whole request runs on the event loop, which interleaves many
 * requests, so the fault is added in the one segment that is the request's alone: the synchronous run of the router
 * (routing, Quarkus REST's chain up to writing the query to PostgreSQL, or up to waiting for a body that has not
 * arrived yet), on that loop. It is sized on the process's cost per request (bench-support), as spring-webflux's filter is; until
 * that is known (the first second) on the segment's own CPU time. Off by default: nothing is installed.
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
}
