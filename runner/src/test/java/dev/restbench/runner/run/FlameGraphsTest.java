package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The profiling window on a real JVM: a child process that burns CPU and allocates in methods with known names,
 * JFR started and stopped by the JDK's own jcmd, the recording converted by async-profiler's converter. The
 * graphs must show the child's own frames (a converter that dropped every sample, as --cpu alone did with JDK
 * recordings, fails here).
 */
class FlameGraphsTest {

    /** The child: spins and allocates until killed. */
    public static final class Busy {
        static volatile Object sink;

        public static void main(String[] args) {
            while (true) {
                spinAndAllocate();
            }
        }

        static void spinAndAllocate() {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < 2_000; i++) {
                text.append(i * 31L % 7);
            }
            sink = text.toString();
        }
    }

    @Test
    void recordsCpuAndAllocationGraphsOfTheServiceOnly(@TempDir Path runDir) throws Exception {
        Path javaHome = Path.of(System.getProperty("java.home"));
        Process child = new ProcessBuilder(javaHome.resolve("bin/java").toString(), "-cp",
                System.getProperty("java.class.path"), Busy.class.getName()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Thread.sleep(1_500);
            FlameGraphs graphs = new FlameGraphs(runDir, 3);
            FlameGraphs.Recording recording = graphs.start(javaHome.resolve("bin/jcmd"), child.pid());
            Thread.sleep(TimeUnit.SECONDS.toMillis(graphs.seconds()));
            FlameGraphs.Result result = graphs.finish(recording, "busy-cell-s1", "busy · cell");

            assertThat(result.reason()).isNull();
            assertThat(result.present()).isTrue();
            assertThat(result.cpu()).isEqualTo("flamegraphs/busy-cell-s1/cpu.html");
            assertThat(result.alloc()).isEqualTo("flamegraphs/busy-cell-s1/alloc.html");
            assertThat(result.seconds()).isGreaterThanOrEqualTo(3.0);
            for (String file : List.of("cpu.collapsed.txt", "alloc.collapsed.txt")) {
                String collapsed = Files.readString(runDir.resolve("flamegraphs/busy-cell-s1").resolve(file));
                assertThat(collapsed).as(file).contains("FlameGraphsTest$Busy.spinAndAllocate");
            }
            String cpuHtml = Files.readString(runDir.resolve(result.cpu()));
            assertThat(cpuHtml).contains("<html").contains("busy · cell").contains("spinAndAllocate");
            assertThat(Files.readString(runDir.resolve(result.alloc()))).contains("spinAndAllocate");
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void isAnOptionOfTheRunOffByDefault() {
        assertThat(RunCommandTest.options("--flamegraphs").flameGraphs(5)).isTrue();
        assertThat(RunCommandTest.options().flameGraphs(0)).isFalse();
    }

    @Test
    void saysWhyWhenTheRecordingCannotStart(@TempDir Path runDir) {
        Path javaHome = Path.of(System.getProperty("java.home"));
        FlameGraphs graphs = new FlameGraphs(runDir, 1);
        // No process has this pid (pids are positive and far below Long.MAX_VALUE): jcmd fails at its first command
        // (the stack depth, set before the recording starts), and says which.
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> graphs.start(javaHome.resolve("bin/jcmd"), Long.MAX_VALUE))
                .isInstanceOf(java.io.IOException.class).hasMessageContaining("JFR.configure stackdepth=1024")
                .hasMessageContaining("Invalid process identifier");
    }
}
