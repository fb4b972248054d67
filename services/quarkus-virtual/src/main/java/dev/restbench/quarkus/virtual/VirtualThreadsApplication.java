package dev.restbench.quarkus.virtual;

import io.smallrye.common.annotation.RunOnVirtualThread;
import jakarta.ws.rs.core.Application;

/**
 * The one difference from the quarkus variant: @RunOnVirtualThread on the JAX-RS Application makes it the default of
 * every resource method, so Quarkus REST runs each blocking endpoint of services/quarkus (compiled here unchanged) on
 * a new virtual thread instead of its worker pool. No getClasses(): the resources are discovered as in quarkus, at the
 * root path.
 */
@RunOnVirtualThread
public class VirtualThreadsApplication extends Application {
}
