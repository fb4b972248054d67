package dev.restbench.runner.run;

import dev.restbench.dataset.StatementStatistics;
import dev.restbench.gatling.results.SimulationLog;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The figures of one measured window: from Gatling's requests that ended in it (exact counts and percentiles out of
 * simulation.log), the runner's /proc readings at its two edges, and the service's metric scrapes at those edges
 * (heap, threads and pool figures are therefore the mean and peak of the edge values), and PostgreSQL's statement
 * counters and the load generator's connection byte counters read with those scrapes. Meter names:
 * docs/ARCHITECTURE.md "Metrics"; a metric whose meter is absent (another runtime, a service at a URL) is left out,
 * never written as 0.
 */
final class WindowMetrics {
    /**
     * Bytes allocated on the heap since the start, freed or not: the JVM's (bench-metrics' jvm.allocation.bytes) and
     * Go's (client_golang's Go collector, from the runtime's own count). Node's client exports no such counter.
     */
    static final List<String> ALLOCATED = List.of("jvm_allocation_bytes_total", "jvm_allocation_bytes",
            "go_memstats_alloc_bytes_total");
    static final List<String> MEMORY_USED = List.of("jvm_memory_used_bytes");
    static final List<String> GC_PAUSE_SUM = List.of("jvm_gc_pause_seconds_sum");
    static final List<String> THREADS_LIVE = List.of("jvm_threads_live_threads", "jvm_threads_live");
    static final List<String> CLASSES_LOADED = List.of("jvm_classes_loaded_classes", "jvm_classes_loaded");
    static final List<String> HIKARI_ACTIVE = List.of("hikaricp_connections_active");
    /** The service's own request timer (Micrometer's http.server.requests; the same name in Node's client). */
    static final List<String> SERVER_SECONDS_SUM = List.of("http_server_requests_seconds_sum");
    static final List<String> SERVER_SECONDS_COUNT = List.of("http_server_requests_seconds_count");
    /** Micrometer's process.cpu.time (ns): the CPU source for services at a URL. */
    static final List<String> PROCESS_CPU_NS = List.of("process_cpu_time_ns_total");

    /**
     * The least service CPU over a window (µs, compilers left out) that /proc resolves to within 10 %. The process
     * total is utime + stime in clock ticks (10 ms), each truncated at both edges: a difference is off by up to two
     * ticks. Below this the window has no CPU figure rather than a rounded one: a few requests of a latency regime in a
     * 2 s smoke window read 0 µs per request once the compilers' exact nanoseconds were taken from a 10 ms count.
     */
    static final long MIN_RESOLVED_CPU_MICROS = 10 * 2 * 1_000_000L / ProcFs.CLOCK_TICKS;

    /** A component whose CPU set was at least this busy held the throughput down. */
    static final double SATURATED = 0.85;
    private static final double MB = 1024.0 * 1024.0;

    /** How busy each side was over a window, in shares (0–1) of the CPUs pinned to it; null where unknown. */
    record Utilisation(Double service, Double postgres, Double loadGenerator, Double serviceCores, Double sharedCores) {

        /** Adds two windows' utilisation weighted by their lengths (for a trial's figure). */
        static Utilisation mean(List<Utilisation> all) {
            return new Utilisation(avg(all, Utilisation::service), avg(all, Utilisation::postgres),
                    avg(all, Utilisation::loadGenerator), avg(all, Utilisation::serviceCores),
                    avg(all, Utilisation::sharedCores));
        }

        private static Double avg(List<Utilisation> all, Function<Utilisation, Double> field) {
            double sum = 0;
            int n = 0;
            for (Utilisation u : all) {
                if (field.apply(u) != null) {
                    sum += field.apply(u);
                    n++;
                }
            }
            return n == 0 ? null : sum / n;
        }

        /**
         * What bound the cell (docs/method.md, "What bound the cell"): the service when its own CPU set was
         * saturated; else the database or the load generator when theirs was (the larger consumer when they share
         * it); "none" when nothing was saturated (the closed model's concurrency, locks or I/O held it); "unknown"
         * without /proc readings.
         */
        String bottleneck() {
            if (service == null) {
                return "unknown";
            }
            if (service >= SATURATED) {
                return "service";
            }
            boolean sharedBusy = sharedCores != null && sharedCores >= SATURATED
                    || postgres != null && postgres >= SATURATED || loadGenerator != null && loadGenerator >= SATURATED;
            if (sharedBusy) {
                double pg = postgres == null ? 0 : postgres;
                double lg = loadGenerator == null ? 0 : loadGenerator;
                return pg >= lg ? "database" : "load-generator";
            }
            return "none";
        }
    }

    /** The metrics of the window and its utilisation. */
    record Result(Map<String, Double> metrics, Utilisation utilisation, long requests) {
    }

    /** The CPU sets the figures are normalised by; null entries when the runner did not pin that side. */
    record CpuSets(Set<Integer> service, Set<Integer> postgres, Set<Integer> loadGenerator) {
        static CpuSets of(String service, String postgres, String loadGenerator) {
            return new CpuSets(parse(service), parse(postgres), parse(loadGenerator));
        }

        /** taskset -c syntax ("1", "0-3,6"); null for null or "external". */
        static Set<Integer> parse(String cpuSet) {
            if (cpuSet == null || cpuSet.equals("external")) {
                return null;
            }
            Set<Integer> cpus = new TreeSet<>();
            for (String part : cpuSet.split(",")) {
                String[] range = part.trim().split("-");
                int from = Integer.parseInt(range[0]);
                int to = range.length > 1 ? Integer.parseInt(range[1]) : from;
                for (int cpu = from; cpu <= to; cpu++) {
                    cpus.add(cpu);
                }
            }
            return cpus;
        }
    }

    private WindowMetrics() {
    }

    static Result of(Reading start, Reading end, List<PrometheusText> scrapes, SimulationLog.Slice requests,
                     CpuSets cpuSets, boolean procCpu) {
        return of(start, end, scrapes, requests, cpuSets, procCpu, Set.of());
    }

    /**
     * The service's JIT compiler threads' CPU in ms per second from {@code start} to {@code end}: a window's
     * {@code jit_cpu_ms_per_s}. Empty when it is not reported: a runtime without compiler threads, or a service the
     * runner did not start (no per-process CPU).
     */
    static OptionalDouble jitMsPerS(Reading start, Reading end, boolean procCpu) {
        OptionalLong cpu = start.serviceCpuUntil(end);
        OptionalLong jit = start.jitCpuUntil(end);
        if (!procCpu || cpu.isEmpty() || jit.isEmpty()) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(jit.getAsLong() / 1000.0 / start.secondsUntil(end));
    }

    /** @param harnessPaths the service's health and metrics paths: the server timer leaves their requests out */
    static Result of(Reading start, Reading end, List<PrometheusText> scrapes, SimulationLog.Slice requests,
                     CpuSets cpuSets, boolean procCpu, Set<String> harnessPaths) {
        double seconds = start.secondsUntil(end);
        long count = requests.total();
        Map<String, Double> metrics = new LinkedHashMap<>();
        metrics.put("throughput", count / seconds);
        if (count > 0) {
            metrics.put("latency_p50", (double) requests.percentileMillis(50));
            metrics.put("latency_p95", (double) requests.percentileMillis(95));
            metrics.put("latency_p99", (double) requests.percentileMillis(99));
            metrics.put("latency_max", (double) requests.maxMillis());
        }
        metrics.put("error_pct", requests.errorPct());

        OptionalLong cpu = start.serviceCpuUntil(end);
        OptionalLong jit = start.jitCpuUntil(end);
        if (procCpu && cpu.isPresent()) {
            // JIT compilation is a warm-up cost, not a per-request one: at low rates the compiler threads burned ~5x
            // the requests' own CPU (jersey at 20 req/s), so CPU per request leaves it out and it is reported apart.
            // A runtime without JIT compiler threads (Node, Go) is charged the process's whole CPU.
            long own = cpu.getAsLong() - jit.orElse(0);
            if (count > 0 && own >= MIN_RESOLVED_CPU_MICROS) {
                metrics.put("cpu_us_per_req", own / (double) count);
                metrics.put("req_per_cpu_s", count / (own / 1e6));
            }
            if (jit.isPresent()) {
                metrics.put("jit_cpu_ms_per_s", jitMsPerS(start, end, procCpu).orElseThrow());
            }
        }
        OptionalLong loadGeneratorCpu = start.loadGeneratorCpuUntil(end);
        if (loadGeneratorCpu.isPresent() && count > 0) {
            // The same requests and the same answers cost the load generator the same work whatever the stack: its
            // CPU per request moves with the host's speed, the gauge an A/B divides the service's CPU by.
            metrics.put("load_generator_cpu_us_per_req", loadGeneratorCpu.getAsLong() / (double) count);
        }
        long postgresCpu = start.postgresCpuUntil(end);
        if (!start.postgresCpuMicros().isEmpty() && !end.postgresCpuMicros().isEmpty() && count > 0) {
            // Every PostgreSQL process, its backends and background workers alike: what serving these requests cost it.
            metrics.put("postgres_cpu_us_per_req", postgresCpu / (double) count);
        }
        PrometheusText first = start.scrape();
        PrometheusText last = end.scrape();
        if (first != null && last != null) {
            if (!procCpu && count > 0) {
                // A service the runner did not start: its own process CPU meter, JIT compilation included. The JVM
                // only exposes the compilers' elapsed time, not their CPU time; subtracting it over-corrected to 0 on
                // a contended core, so this source leaves the JIT in and jit_cpu_ms_per_s out.
                delta(first, last, PROCESS_CPU_NS).ifPresent(ns -> metrics.put("cpu_us_per_req", ns / 1000.0 / count));
            }
            if (count > 0) {
                delta(first, last, ALLOCATED).ifPresent(bytes -> metrics.put("alloc_bytes_per_req", bytes / count));
            }
            // The service's own clock, at µs resolution where Gatling's log has whole ms: the mean time from the
            // request's arrival to its answer as the stack's timer sees it (no network, no load generator queueing).
            double served = last.sumExcept(SERVER_SECONDS_COUNT, "uri", harnessPaths).orElse(0)
                    - first.sumExcept(SERVER_SECONDS_COUNT, "uri", harnessPaths).orElse(0);
            if (served > 0) {
                double servedSeconds = last.sumExcept(SERVER_SECONDS_SUM, "uri", harnessPaths).orElse(0)
                        - first.sumExcept(SERVER_SECONDS_SUM, "uri", harnessPaths).orElse(0);
                metrics.put("server_us_per_req", servedSeconds * 1e6 / served);
            }
            // Micrometer registers jvm.gc.pause at the first GC event: absent from a JVM that exposes its memory
            // meters means "no pause yet", i.e. 0 s.
            if (first.sum(MEMORY_USED).isPresent() && last.sum(MEMORY_USED).isPresent()) {
                double pause = last.sum(GC_PAUSE_SUM).orElse(0) - first.sum(GC_PAUSE_SUM).orElse(0);
                metrics.put("gc_ms_per_s", pause * 1000.0 / seconds);
            }
        }
        if (start.statements() != null && end.statements() != null && count > 0) {
            // PostgreSQL counts a statement when it completes, Gatling a request when its answer arrives: the requests
            // in flight at the two edges (at most the users, of thousands per window) blur the ratio slightly.
            StatementStatistics.Counts ran = end.statements().minus(start.statements());
            metrics.put("sql_statements_per_req", ran.statements() / (double) count);
            metrics.put("sql_rows_per_req", ran.rows() / (double) count);
            metrics.put("sql_blocks_per_req", ran.blocks() / (double) count);
            metrics.put("sql_text_bytes_per_req", ran.textBytes() / (double) count);
            if (ran.plans() != null) {
                metrics.put("sql_plans_per_req", ran.plans() / (double) count);
            }
        }
        if (start.connections() != null && end.connections() != null && count > 0) {
            // Every byte of the answers, status line and headers included, as the load generator's kernel received
            // them; the requests in flight at the two edges blur the ratio as they blur the statements'.
            ConnectionBytes.receivedBetween(start.connections(), end.connections())
                    .ifPresent(bytes -> metrics.put("response_bytes_per_req", bytes / (double) count));
        }
        series(scrapes, s -> s.sum(MEMORY_USED, "area", "heap")).ifPresent(heap -> {
            metrics.put("heap_mean_mb", mean(heap) / MB);
            metrics.put("heap_peak_mb", max(heap) / MB);
        });
        series(scrapes, s -> s.sum(THREADS_LIVE)).ifPresent(threads -> metrics.put("threads_peak", max(threads)));
        series(scrapes, s -> s.sum(HIKARI_ACTIVE)).ifPresent(active -> {
            metrics.put("hikari_active_mean", mean(active));
            metrics.put("hikari_active_peak", max(active));
        });
        return new Result(metrics, utilisation(start, end, seconds, cpuSets, cpu, postgresCpu, loadGeneratorCpu),
                count);
    }

    private static Utilisation utilisation(Reading start, Reading end, double seconds, CpuSets sets, OptionalLong cpu,
                                           long postgresCpu, OptionalLong lg) {
        Double service = sets.service() == null || cpu.isEmpty() ? null
                : cpu.getAsLong() / 1e6 / seconds / sets.service().size();
        Double postgres = sets.postgres() == null || start.postgresCpuMicros().isEmpty() ? null
                : postgresCpu / 1e6 / seconds / sets.postgres().size();
        Double loadGenerator = sets.loadGenerator() == null || lg.isEmpty() ? null
                : lg.getAsLong() / 1e6 / seconds / sets.loadGenerator().size();
        Double serviceCores = sets.service() == null ? null : boxed(start.busyUntil(end, sets.service()));
        Set<Integer> shared = new TreeSet<>();
        if (sets.postgres() != null) {
            shared.addAll(sets.postgres());
        }
        if (sets.loadGenerator() != null) {
            shared.addAll(sets.loadGenerator());
        }
        Double sharedCores = shared.isEmpty() ? null : boxed(start.busyUntil(end, shared));
        return new Utilisation(service, postgres, loadGenerator, serviceCores, sharedCores);
    }

    /** classes_loaded, live_threads and heap used from the first scrape after the service became healthy. */
    static Map<String, Double> startup(PrometheusText firstScrape) {
        Map<String, Double> metrics = new LinkedHashMap<>();
        firstScrape.sum(CLASSES_LOADED).ifPresent(v -> metrics.put("classes_loaded", v));
        firstScrape.sum(THREADS_LIVE).ifPresent(v -> metrics.put("live_threads", v));
        firstScrape.sum(MEMORY_USED, "area", "heap").ifPresent(v -> metrics.put("heap_after_start_mb", v / MB));
        return metrics;
    }

    private static Double boxed(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }

    private static OptionalDouble delta(PrometheusText first, PrometheusText last, List<String> names) {
        OptionalDouble a = first.sum(names);
        OptionalDouble b = last.sum(names);
        return a.isPresent() && b.isPresent() ? OptionalDouble.of(b.getAsDouble() - a.getAsDouble()) : OptionalDouble.empty();
    }

    private static java.util.Optional<double[]> series(List<PrometheusText> scrapes,
                                                       Function<PrometheusText, OptionalDouble> value) {
        double[] values = scrapes.stream().map(value).filter(OptionalDouble::isPresent)
                .mapToDouble(OptionalDouble::getAsDouble).toArray();
        return values.length == 0 ? java.util.Optional.empty() : java.util.Optional.of(values);
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static double max(double[] values) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : values) {
            max = Math.max(max, v);
        }
        return max;
    }
}
