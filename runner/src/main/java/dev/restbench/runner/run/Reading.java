package dev.restbench.runner.run;

import dev.restbench.dataset.StatementStatistics;

import java.sql.SQLException;
import java.util.Map;
import java.util.OptionalLong;

/**
 * Everything the runner reads at one instant of a cell — a window edge or a warmup bin edge: the service's CPU time
 * (process, and its JIT compiler threads separately), PostgreSQL's (postmaster and backends) and the load generator's,
 * each CPU's busy ticks, and optionally one scrape of the service's metrics together with PostgreSQL's count of the
 * statements the service's database has run and the bytes on the load generator's connections to the service.
 *
 * @param epochMillis when, on the clock Gatling stamps its requests with ({@link GatlingClock}: the monotonic clock
 *                    from a wall-clock reference, so a step of the host's wall clock moves neither), taken between
 *                    the CPU readings
 * @param nanoTime    the same instant on the monotonic clock, for durations
 * @param scrape      the metrics scrape at this edge, null when not taken or it failed
 * @param statements  the service database's statements so far, null when not read, unavailable or it failed
 * @param connections the load generator's connections to the service and their bytes so far (read with the scrape),
 *                    null when not read or unreadable
 */
record Reading(long epochMillis, long nanoTime, OptionalLong serviceCpuMicros, Map<Long, Long> jitCpuMicros,
               Map<Long, Long> postgresCpuMicros, OptionalLong loadGeneratorCpuMicros, Map<Integer, long[]> cpuTicks,
               PrometheusText scrape, StatementStatistics.Counts statements,
               Map<String, ConnectionBytes.Counts> connections) {

    /**
     * The processes whose CPU a reading covers; any may be absent (a service at a URL, an external database).
     *
     * @param statements the server's statement counters, null when not counted; {@code database} is the service's
     */
    record Sources(ServiceUnderTest service, Long postgresPid, Long loadGeneratorPid, StatementStatistics statements,
                   String database, GatlingClock clock) {

        /**
         * Reads in a fixed order so that intervals nest: the service's process CPU outermost (first at a start edge,
         * last at an end edge is what {@link #readEnd} does), the JIT threads inside it, so the subtracted JIT time
         * never extends beyond the process interval.
         */
        Reading readStart(boolean scrape) {
            OptionalLong cpu = service.cpuMicros();
            Map<Long, Long> jit = service.jitThreadCpuMicros();
            return others(cpu, jit, scrape);
        }

        Reading readEnd(boolean scrape) {
            Map<Long, Long> jit = service.jitThreadCpuMicros();
            OptionalLong cpu = service.cpuMicros();
            return others(cpu, jit, scrape);
        }

        /** The port the load generator connects to; -1 when the base URL names none. */
        private int servicePort() {
            java.net.URI uri = java.net.URI.create(service.baseUrl());
            if (uri.getPort() > 0) {
                return uri.getPort();
            }
            return "https".equals(uri.getScheme()) ? 443 : "http".equals(uri.getScheme()) ? 80 : -1;
        }

        private Reading others(OptionalLong cpu, Map<Long, Long> jit, boolean scrape) {
            long nanos = System.nanoTime();
            long epoch = clock.millis(nanos);
            Map<Long, Long> postgres = postgresPid == null ? Map.of() : ProcFs.treeCpuMicros(postgresPid);
            OptionalLong loadGenerator = loadGeneratorPid == null ? OptionalLong.empty() : ProcFs.cpuMicros(loadGeneratorPid);
            Map<Integer, long[]> ticks = ProcFs.cpuTicks();
            PrometheusText text = null;
            StatementStatistics.Counts counts = null;
            Map<String, ConnectionBytes.Counts> connections = null;
            if (scrape) {
                try {
                    text = service.scrape();
                } catch (Exception e) {
                    // a missed scrape only leaves the scrape-based metrics of this window out
                }
                // Read with the scrape, at the window edges and at the warmup's scraping bins alike: the warmup runs
                // what the windows run, these queries included (~1 ms of PostgreSQL's CPU each).
                if (statements != null && statements.available()) {
                    try {
                        counts = statements.read(database);
                    } catch (SQLException | RuntimeException e) {
                        // a missed reading only leaves the statement metrics of this window out
                    }
                }
                int port = servicePort();
                if (loadGeneratorPid != null && port > 0) {
                    connections = ConnectionBytes.read(port, loadGeneratorPid);
                }
            }
            return new Reading(epoch, nanos, cpu, jit, postgres, loadGenerator, ticks, text, counts, connections);
        }
    }

    /** Seconds from this reading to a later one. */
    double secondsUntil(Reading later) {
        return (later.nanoTime - nanoTime) / 1e9;
    }

    /** The service's CPU from here to later, µs; empty when either reading lacks it. */
    OptionalLong serviceCpuUntil(Reading later) {
        return serviceCpuMicros.isPresent() && later.serviceCpuMicros.isPresent()
                ? OptionalLong.of(later.serviceCpuMicros.getAsLong() - serviceCpuMicros.getAsLong()) : OptionalLong.empty();
    }

    /**
     * The JIT compiler threads' CPU from here to later, µs: a thread started in between counts from zero; one that
     * ended in between is lost (rare: HotSpot retires idle compiler threads), which can only make the compile share
     * look smaller. Empty when the threads were unreadable at this edge but not at the later one, or the runtime has
     * none (a JVM always has them).
     */
    OptionalLong jitCpuUntil(Reading later) {
        if (later.jitCpuMicros.isEmpty() || jitCpuMicros.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(delta(jitCpuMicros, later.jitCpuMicros));
    }

    long postgresCpuUntil(Reading later) {
        return delta(postgresCpuMicros, later.postgresCpuMicros);
    }

    OptionalLong loadGeneratorCpuUntil(Reading later) {
        return loadGeneratorCpuMicros.isPresent() && later.loadGeneratorCpuMicros.isPresent()
                ? OptionalLong.of(later.loadGeneratorCpuMicros.getAsLong() - loadGeneratorCpuMicros.getAsLong())
                : OptionalLong.empty();
    }

    /** Busy share (0–1) of the given CPUs from here to later; empty when /proc/stat was not readable. */
    java.util.OptionalDouble busyUntil(Reading later, java.util.Set<Integer> cpus) {
        long busy = 0;
        long total = 0;
        for (int cpu : cpus) {
            long[] a = cpuTicks.get(cpu);
            long[] b = later.cpuTicks.get(cpu);
            if (a == null || b == null) {
                return java.util.OptionalDouble.empty();
            }
            busy += b[0] - a[0];
            total += b[1] - a[1];
        }
        return total <= 0 ? java.util.OptionalDouble.empty() : java.util.OptionalDouble.of((double) busy / total);
    }

    private static long delta(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (Map.Entry<Long, Long> e : after.entrySet()) {
            sum += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
        }
        return sum;
    }
}
