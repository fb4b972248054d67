package dev.restbench.jersey.jetty;

import dev.restbench.support.FaultInjection;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The regression drill (FAULT_CPU_PERCENT) on Jetty: burns extra CPU in proportion to the CPU the request's handling
 * took on this thread, Jersey and JSON writing included, like jersey's Grizzly FaultInjectionHandler. Installed only
 * when the drill is enabled.
 */
public final class FaultInjectionWrapper extends Handler.Wrapper {

    private final FaultInjection faultInjection;

    public FaultInjectionWrapper(Handler next, FaultInjection faultInjection) {
        super(next);
        this.faultInjection = faultInjection;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        long token = faultInjection.begin();
        try {
            return super.handle(request, response, callback);
        } finally {
            faultInjection.end(token);
        }
    }
}
