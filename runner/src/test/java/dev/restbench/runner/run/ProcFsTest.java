package dev.restbench.runner.run;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.util.Map;

/** Reads /proc of this very JVM: it has JIT compiler threads and burns CPU, so the readings are real. */
class ProcFsTest {

    private static final long SELF = ProcessHandle.current().pid();

    @Test
    void statLineWithSpacesAndParenthesesInTheNameIsParsedAfterTheLastParenthesis() {
        // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime …
        String stat = "4242 (C2 Compiler) (x)) S 1 1 1 0 -1 4194560 10 0 0 0 250 50 0 0 20 0 30 0";
        assertThat(ProcFs.statCpuMicros(stat)).isEqualTo(300 * 1_000_000L / ProcFs.CLOCK_TICKS);
    }

    @Test
    void compilerThreadsAreRecognisedByTheirTruncatedKernelNames() {
        assertThat(ProcFs.isJitCompiler("C2 CompilerThre")).isTrue();
        assertThat(ProcFs.isJitCompiler("C1 CompilerThre")).isTrue();
        assertThat(ProcFs.isJitCompiler("JVMCI CompilerT")).isTrue();
        assertThat(ProcFs.isJitCompiler("GC Thread#0")).isFalse();
        assertThat(ProcFs.isJitCompiler("http-worker(1)")).isFalse();
    }

    @Test
    void thisJvmsCompilerThreadsAreFoundAndTheirCpuIsPartOfTheProcesss() {
        long sink = 0;
        for (int i = 0; i < 5_000_000; i++) { // enough hot code for the compilers to have run
            sink += Integer.toString(i).hashCode();
        }
        Map<Long, Long> jit = ProcFs.jitThreadCpuMicros(SELF);
        long process = ProcFs.cpuMicros(SELF).orElseThrow();

        assertThat(jit).as("compiler threads of pid %d (sink %d)", SELF, sink).isNotEmpty();
        assertThat(jit.values()).allSatisfy(us -> assertThat(us).isNotNegative());
        assertThat(jit.values().stream().mapToLong(Long::longValue).sum()).isPositive().isLessThanOrEqualTo(process);
    }

    @Test
    void aProcessThatIsGoneHasNoReadings() {
        assertThat(ProcFs.jitThreadCpuMicros(Long.MAX_VALUE)).isEmpty();
        assertThat(ProcFs.cpuMicros(Long.MAX_VALUE)).isEmpty();
    }
}
