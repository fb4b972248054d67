package dev.restbench.runner.run;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Decides when a warming service has settled, from one-second bins of the load it serves (docs/method.md,
 * "Steady state"). In the spirit of Georges et al. (2007) — a run is steady when its most recent iterations vary
 * little — and of JMH's warmup iterations, with what a JVM adds: the JIT compiler threads must have gone quiet.
 * Over the last {@code stableSeconds} bins, all of:
 * <ol>
 *   <li>the JIT compiler threads used at most {@code maxJitMsPerS} of CPU per second (skipped for a runtime without
 *       such threads, e.g. Node);</li>
 *   <li>throughput did not drift: the mean rate of the newer half of the bins differs from the older half's by at
 *       most {@code maxDriftPct} — or by no more than twice the standard error of that difference, so the bins' own
 *       counting noise at low rates cannot keep a settled service warming forever;</li>
 *   <li>the same holds for the service's CPU time per request (JIT excluded), which keeps falling while compiled code
 *       replaces interpreted code even when the throughput is held by something else (the database, the load
 *       generator).</li>
 * </ol>
 * Never before {@code minSeconds}; at {@code maxSeconds} the warmup stops anyway and the cell is <em>unsteady</em>,
 * with the criterion that failed last as the reason.
 */
final class SteadyState {

    /** The rule's parameters (benchmarks.json, profile "warmup"). */
    record Rule(int minSeconds, int maxSeconds, int stableSeconds, double maxJitMsPerS, double maxDriftPct) {
        Rule {
            if (stableSeconds < 4 || minSeconds < stableSeconds || maxSeconds < minSeconds) {
                throw new IllegalArgumentException("warmup needs 4 <= stableSeconds <= minSeconds <= maxSeconds");
            }
        }
    }

    /**
     * One bin: its length, the requests Gatling completed in it, the service's CPU time (JIT threads excluded) and
     * its JIT compiler threads' CPU time (null when the runtime has none or they cannot be read).
     */
    record Bin(double seconds, long requests, long serviceCpuMicros, Long jitCpuMicros) {
    }

    /** The state after the newest bin: steady or not, and why not. */
    record Verdict(boolean steady, String reason) {
    }

    private final Rule rule;
    private final List<Bin> bins = new ArrayList<>();
    private double elapsed;
    private Verdict last = new Verdict(false, "no load seen yet");

    SteadyState(Rule rule) {
        this.rule = rule;
    }

    Verdict add(Bin bin) {
        bins.add(bin);
        elapsed += bin.seconds();
        last = judge();
        return last;
    }

    /** Whether the warmup should end now: steady after the minimum, or the cap reached. */
    boolean done() {
        return elapsed >= rule.minSeconds() && last.steady() || elapsed >= rule.maxSeconds();
    }

    double elapsedSeconds() {
        return elapsed;
    }

    Verdict verdict() {
        return last;
    }

    private Verdict judge() {
        // Bins are about one second each: the sliding window is the newest bins covering stableSeconds.
        List<Bin> recent = new ArrayList<>();
        double covered = 0;
        for (int i = bins.size() - 1; i >= 0 && covered < rule.stableSeconds() - 0.5; i--) {
            recent.add(0, bins.get(i));
            covered += bins.get(i).seconds();
        }
        if (covered < rule.stableSeconds() - 0.5) {
            return new Verdict(false, String.format(Locale.ROOT, "fewer than %d s of load", rule.stableSeconds()));
        }
        long requests = recent.stream().mapToLong(Bin::requests).sum();
        if (requests == 0) {
            return new Verdict(false, "no requests completed in the last " + rule.stableSeconds() + " s");
        }
        if (recent.stream().allMatch(b -> b.jitCpuMicros() != null)) {
            double jitMsPerS = recent.stream().mapToLong(Bin::jitCpuMicros).sum() / 1000.0 / covered;
            if (jitMsPerS > rule.maxJitMsPerS()) {
                return new Verdict(false, String.format(Locale.ROOT, "JIT compilers %.0f ms/s > %.0f",
                        jitMsPerS, rule.maxJitMsPerS()));
            }
        }
        int half = recent.size() / 2;
        List<Bin> older = recent.subList(0, half);
        List<Bin> newer = recent.subList(recent.size() - half, recent.size());
        String throughput = drift("throughput", rates(older), rates(newer));
        if (throughput != null) {
            return new Verdict(false, throughput);
        }
        String cpu = drift("CPU per request", cpuPerRequest(older), cpuPerRequest(newer));
        if (cpu != null) {
            return new Verdict(false, cpu);
        }
        return new Verdict(true, null);
    }

    /** Null when the two halves agree within the rule (or within their own noise), else why not. */
    private String drift(String what, double[] older, double[] newer) {
        if (older.length < 2 || newer.length < 2) {
            return null;
        }
        double a = mean(older);
        double b = mean(newer);
        if (a <= 0) {
            return b > 0 ? what + " still rising from zero" : null;
        }
        double changePct = (b - a) / a * 100;
        double standardErrorPct = Math.sqrt(variance(older) / older.length + variance(newer) / newer.length) / a * 100;
        double allowed = Math.max(rule.maxDriftPct(), 2 * standardErrorPct);
        if (Math.abs(changePct) > allowed) {
            return String.format(Locale.ROOT, "%s drifting %+.1f %% over %d s (allowed ±%.1f %%)", what, changePct,
                    rule.stableSeconds(), allowed);
        }
        return null;
    }

    private static double[] rates(List<Bin> bins) {
        return bins.stream().mapToDouble(b -> b.requests() / b.seconds()).toArray();
    }

    /** Per-bin CPU µs per request; bins without requests say nothing about it. */
    private static double[] cpuPerRequest(List<Bin> bins) {
        return bins.stream().filter(b -> b.requests() > 0)
                .mapToDouble(b -> b.serviceCpuMicros() / (double) b.requests()).toArray();
    }

    private static double mean(double[] values) {
        double sum = 0;
        for (double v : values) {
            sum += v;
        }
        return sum / values.length;
    }

    private static double variance(double[] values) {
        double m = mean(values);
        double sum = 0;
        for (double v : values) {
            sum += (v - m) * (v - m);
        }
        return sum / (values.length - 1);
    }
}
