package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/** The window's CPU arithmetic on scripted /proc readings (start edge, then end edge). */
class WindowSamplerTest {

    /** A service whose /proc readings are scripted; scrapes fail (only the CPU edges matter here). */
    private static final class ScriptedService implements ServiceUnderTest {
        final Deque<OptionalLong> cpu = new ArrayDeque<>();
        final Deque<Map<Long, Long>> jit = new ArrayDeque<>();

        @Override
        public String baseUrl() {
            return "http://127.0.0.1:1";
        }

        @Override
        public PrometheusText scrape() throws IOException {
            throw new IOException("no metrics in this test");
        }

        @Override
        public boolean isAlive() {
            return true;
        }

        @Override
        public String deathReason(String when) {
            return "";
        }

        @Override
        public boolean procCpu() {
            return true;
        }

        @Override
        public OptionalLong cpuMicros() {
            return cpu.removeFirst();
        }

        @Override
        public Map<Long, Long> jitThreadCpuMicros() {
            return jit.removeFirst();
        }
    }

    private static WindowSampler window(long cpuStart, Map<Long, Long> jitStart, long cpuEnd, Map<Long, Long> jitEnd) {
        ScriptedService service = new ScriptedService();
        service.cpu.add(OptionalLong.of(cpuStart));
        service.cpu.add(OptionalLong.of(cpuEnd));
        service.jit.add(jitStart);
        service.jit.add(jitEnd);
        WindowSampler window = new WindowSampler(service);
        window.started();
        window.completed();
        return window;
    }

    @Test
    void theCompilerThreadsDeltaIsSubtractedPerThread() {
        WindowSampler window = window(1_000_000, Map.of(11L, 300_000L, 12L, 50_000L),
                3_000_000, Map.of(11L, 900_000L, 12L, 50_000L));

        assertThat(window.cpuMicros()).hasValue(2_000_000);
        assertThat(window.jitCpuMicros()).hasValue(600_000);
        assertThat(ServiceMetrics.window(window, 1_000)).containsEntry("cpu_us_per_req", 1_400.0);
    }

    @Test
    void aCompilerThreadStartedInsideTheWindowCountsFromZeroAndOneThatEndedIsLost() {
        WindowSampler window = window(0, Map.of(11L, 100L, 12L, 5_000L), 10_000, Map.of(11L, 400L, 13L, 700L));

        assertThat(window.jitCpuMicros()).hasValue(300 + 700);
    }

    @Test
    void compilerThreadsUnreadableAtTheStartMakeTheJitShareUnknownAndLeaveCpuPerRequestOut() {
        WindowSampler window = window(0, Map.of(), 10_000, Map.of(11L, 400L));

        assertThat(window.jitCpuMicros()).isEmpty();
        assertThat(ServiceMetrics.window(window, 10)).doesNotContainKeys("cpu_us_per_req", "jit_cpu_ms_per_s");
    }

    @Test
    void aProcessWithoutCompilerThreadsHasNoJitShare() {
        WindowSampler window = window(0, Map.of(), 10_000, Map.of());

        assertThat(window.jitCpuMicros()).hasValue(0);
        assertThat(ServiceMetrics.window(window, 10)).containsEntry("cpu_us_per_req", 1_000.0);
    }

    @Test
    void tickRoundingBelowTheCompilerShareIsZeroNotNegative() {
        WindowSampler window = window(0, Map.of(11L, 0L), 20_000, Map.of(11L, 25_000L));

        assertThat(ServiceMetrics.window(window, 5)).containsEntry("cpu_us_per_req", 0.0);
    }
}
