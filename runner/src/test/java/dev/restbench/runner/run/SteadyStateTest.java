package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The warmup rule on scripted one-second bins. */
class SteadyStateTest {
    private static final SteadyState.Rule RULE = new SteadyState.Rule(20, 120, 10, 30, 5);

    /** A bin of one second: requests per second, CPU µs per request, JIT ms per second. */
    private static SteadyState.Bin bin(double rps, double cpuPerRequest, Double jitMs) {
        long requests = Math.round(rps);
        return new SteadyState.Bin(1.0, requests, Math.round(requests * cpuPerRequest),
                jitMs == null ? null : Math.round(jitMs * 1000));
    }

    @Test
    void aSettledServiceIsSteadyAtTheMinimumAndNotBefore() {
        SteadyState steady = new SteadyState(RULE);
        Random noise = new Random(1);
        for (int second = 1; second <= 19; second++) {
            steady.add(bin(500 * (1 + 0.02 * noise.nextGaussian()), 800, 5.0));
            assertThat(steady.done()).isFalse();
        }
        steady.add(bin(500, 800, 5.0));
        assertThat(steady.verdict().steady()).isTrue();
        assertThat(steady.done()).isTrue();
    }

    @Test
    void busyCompilersKeepItWarmingAndTheCapMarksItUnsteadyWithTheReason() {
        SteadyState steady = new SteadyState(RULE);
        int seconds = 0;
        while (!steady.done()) {
            steady.add(bin(500, 800, 120.0));
            seconds++;
        }
        assertThat(seconds).isEqualTo(120);
        assertThat(steady.verdict().steady()).isFalse();
        assertThat(steady.verdict().reason()).contains("JIT compilers 120 ms/s > 30");
    }

    @Test
    void fallingCpuPerRequestAtAFlatThroughputIsNotSteady() {
        // The throughput is held by the shared core (database, load generator) while compiled code replaces
        // interpreted code: only the CPU per request shows the service is still warming.
        SteadyState steady = new SteadyState(RULE);
        for (int second = 0; second < 40; second++) {
            steady.add(bin(300, 2000 - 30 * second, 10.0));
        }
        assertThat(steady.verdict().steady()).isFalse();
        assertThat(steady.verdict().reason()).startsWith("CPU per request drifting -");
    }

    @Test
    void risingThroughputIsNotSteady() {
        SteadyState steady = new SteadyState(RULE);
        for (int second = 0; second < 40; second++) {
            steady.add(bin(200 + 10 * second, 800, 10.0));
        }
        assertThat(steady.verdict().reason()).startsWith("throughput drifting +");
    }

    @Test
    void countingNoiseAtALowRateDoesNotKeepASettledServiceWarmingForever() {
        // 10 requests per second: Poisson counts vary ~30 % bin to bin, far beyond a 5 % drift bound.
        SteadyState steady = new SteadyState(RULE);
        Random random = new Random(3);
        int seconds = 0;
        while (!steady.done()) {
            double rps = Math.max(1, 10 + Math.sqrt(10) * random.nextGaussian());
            steady.add(bin(rps, 3000 * (1 + 0.1 * random.nextGaussian()), 2.0));
            seconds++;
        }
        assertThat(steady.verdict().steady()).isTrue();
        assertThat(seconds).isLessThan(60);
    }

    @Test
    void aRuntimeWithoutCompilerThreadsIsJudgedOnThroughputAndCpuAlone() {
        SteadyState steady = new SteadyState(RULE);
        for (int second = 0; second < 20; second++) {
            steady.add(bin(400, 900, null));
        }
        assertThat(steady.verdict().steady()).isTrue();
    }

    @Test
    void noRequestsIsNeverSteady() {
        SteadyState steady = new SteadyState(RULE);
        for (int second = 0; second < 30; second++) {
            steady.add(new SteadyState.Bin(1.0, 0, 0, 0L));
        }
        assertThat(steady.verdict().steady()).isFalse();
        assertThat(steady.verdict().reason()).contains("no requests");
    }
}
