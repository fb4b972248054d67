package dev.restbench.runner.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;

/** Linux /proc readings of a process: CPU time and resident memory, independent of the process's own metrics. */
final class ProcFs {
    /** Kernel clock ticks per second (USER_HZ); 100 on every mainstream Linux build, checked with getconf. */
    static final long CLOCK_TICKS = clockTicks();

    private ProcFs() {
    }

    /** utime + stime of the process (all threads, not its children), in microseconds; empty if it is gone. */
    static OptionalLong cpuMicros(long pid) {
        try {
            return OptionalLong.of(statCpuMicros(Files.readString(Path.of("/proc", Long.toString(pid), "stat"))));
        } catch (IOException | RuntimeException e) {
            return OptionalLong.empty();
        }
    }

    /**
     * CPU time in microseconds of each live JIT compiler thread of a HotSpot JVM (C1, C2 or JVMCI compiler threads,
     * by thread name), keyed by thread id; empty if the process is gone. From the scheduler's nanosecond counter
     * (task/&lt;tid&gt;/schedstat) where the kernel has it, else utime + stime (10 ms ticks).
     */
    static Map<Long, Long> jitThreadCpuMicros(long pid) {
        Map<Long, Long> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    if (isJitCompiler(stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')))) {
                        threads.put(Long.parseLong(task.getFileName().toString()), threadCpuMicros(task, stat));
                    }
                } catch (IOException | RuntimeException e) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process is gone
        }
        return threads;
    }

    private static long threadCpuMicros(Path task, String stat) {
        try {
            String schedstat = Files.readString(task.resolve("schedstat")).trim();
            return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' '))) / 1000;
        } catch (IOException | RuntimeException e) {
            return statCpuMicros(stat); // kernels without CONFIG_SCHED_INFO
        }
    }

    /** Kernel thread names are cut to 15 characters: "C2 CompilerThre", "JVMCI CompilerT". */
    static boolean isJitCompiler(String threadName) {
        return threadName.startsWith("C1 CompilerThre") || threadName.startsWith("C2 CompilerThre")
                || threadName.startsWith("JVMCI CompilerT");
    }

    /** utime + stime of one /proc stat line, in microseconds. */
    static long statCpuMicros(String stat) {
        // The command name (field 2) is in parentheses and may contain spaces: count fields after the last ')'.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long utime = Long.parseLong(fields[11]); // field 14 overall
        long stime = Long.parseLong(fields[12]); // field 15 overall
        return (utime + stime) * 1_000_000L / CLOCK_TICKS;
    }

    /**
     * CPU time in microseconds of a process and each of its live descendants, keyed by pid (PostgreSQL: the postmaster
     * and its backends). A process that exits between two readings takes its time with it; a new one counts from 0.
     */
    static Map<Long, Long> treeCpuMicros(long pid) {
        Map<Long, Long> cpu = new HashMap<>();
        cpuMicros(pid).ifPresent(v -> cpu.put(pid, v));
        ProcessHandle.of(pid).ifPresent(root -> root.descendants()
                .forEach(child -> cpuMicros(child.pid()).ifPresent(v -> cpu.put(child.pid(), v))));
        return cpu;
    }

    /** Busy and total time of each CPU since boot, in ticks, from /proc/stat ("cpuN" lines); empty off Linux. */
    static Map<Integer, long[]> cpuTicks() {
        Map<Integer, long[]> cpus = new HashMap<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (!line.startsWith("cpu") || line.startsWith("cpu ")) {
                    continue;
                }
                String[] f = line.trim().split("\\s+");
                long total = 0;
                for (int i = 1; i < f.length; i++) {
                    total += Long.parseLong(f[i]);
                }
                long idle = Long.parseLong(f[4]) + (f.length > 5 ? Long.parseLong(f[5]) : 0); // idle + iowait
                cpus.put(Integer.parseInt(f[0].substring(3)), new long[] {total - idle, total});
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no core-level figures
        }
        return cpus;
    }

    /** VmRSS in kB; empty if the process is gone. */
    static OptionalLong rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    return OptionalLong.of(Long.parseLong(line.replaceAll("[^0-9]", "")));
                }
            }
        } catch (IOException | RuntimeException e) {
            // gone
        }
        return OptionalLong.empty();
    }

    private static long clockTicks() {
        try {
            Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor();
            return Long.parseLong(out);
        } catch (Exception e) {
            return 100;
        }
    }
}
