package dev.restbench.runner.run;

import java.io.IOException;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The service one step measures: a process the runner started ({@link ServiceProcess}) or one that already runs
 * at a URL, e.g. in the compose stack ({@link ServiceEndpoint}).
 */
interface ServiceUnderTest {

    String baseUrl();

    /** One scrape of the metrics endpoint. */
    PrometheusText scrape() throws IOException, InterruptedException;

    /** Still able to serve: the process is alive, or the remote health check answers 200. */
    boolean isAlive();

    /** Why {@link #isAlive()} said no, for a failed cell's reason; {@code when} is e.g. "during the window". */
    String deathReason(String when);

    /** The paths the harness itself requests (health, metrics): their requests are not the load's. */
    java.util.Set<String> harnessPaths();

    /** True when the runner reads this service's CPU from /proc; false when only its own meters can tell. */
    boolean procCpu();

    /** CPU time of the whole process from /proc, in µs; empty when the runner cannot see the process. */
    OptionalLong cpuMicros();

    /** CPU time in µs of each JIT compiler thread, by thread id; empty when the runner cannot see the process. */
    Map<Long, Long> jitThreadCpuMicros();
}
