package dev.restbench.runner.run;

import dev.restbench.runner.isolation.ServiceUser;
import one.convert.Arguments;
import one.convert.JfrToFlame;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./bench run --flamegraphs}: after a cell's published windows, one more window of the same load (the same
 * Gatling session, still running) with JDK Flight Recorder on the service — started and stopped with {@code jcmd}
 * of the service's own JDK, the {@code profile} settings (execution samples every 10 ms, allocation samples
 * at TLAB refills) — converted to a CPU and an allocation flame graph by async-profiler's converter
 * ({@code tools.profiler:jfr-converter}). The profiling window's figures are not kept: no published number is
 * measured while the recorder runs. A later cell of the same start warms up until steady again, which absorbs
 * what starting the recorder changed in the JIT's code.
 *
 * <p>Only JVM variants: a Node.js service gets {@link Result#absent} with the reason, never a broken link.
 *
 * <p>A service of a {@link ServiceUser} is attached to by jcmd as that user (attach works within one uid only), and
 * its recording is written into that user's directory, then copied into the run's by the runner.
 */
final class FlameGraphs {

    static final String RECORDING = "restbench-flamegraph";
    private static final long JCMD_TIMEOUT_S = 60;

    /** Where a cell's graphs went (paths relative to the run directory), or why there are none. */
    record Result(String cpu, String alloc, String jfr, double seconds, String reason) {
        static Result absent(String reason) {
            return new Result(null, null, null, 0, reason);
        }

        boolean present() {
            return cpu != null;
        }
    }

    /** One recording in progress on one service. */
    record Recording(Path jcmd, long pid, long startedNanos) {
    }

    private final Path runDir;
    private final int seconds;
    private final Optional<ServiceUser> user;

    /**
     * @param runDir  the run's directory (graphs go to flamegraphs/&lt;cell&gt;/ under it)
     * @param seconds length of the profiling window
     */
    FlameGraphs(Path runDir, int seconds) {
        this(runDir, seconds, Optional.empty());
    }

    /** @param user the user the profiled services run as (empty: the runner's own) */
    FlameGraphs(Path runDir, int seconds, Optional<ServiceUser> user) {
        this.runDir = runDir;
        this.seconds = seconds;
        this.user = user;
    }

    int seconds() {
        return seconds;
    }

    /**
     * Frames kept per sampled stack. JFR's default, 64, cut Spring's request stacks (filters, the dispatcher, the
     * data repositories' proxies run deeper) into dozens of truncated roots instead of one tree under the thread.
     */
    static final int STACK_DEPTH = 1024;

    /** Starts JFR on the service; the caller keeps the load running for {@link #seconds()}. */
    Recording start(Path jcmd, long pid) throws IOException, InterruptedException {
        // Set on the running JVM, before its first recording (JFR.configure takes it then, no launch option needed,
        // so the measured windows ran the command line they always run).
        jcmd(jcmd, pid, List.of("JFR.configure", "stackdepth=" + STACK_DEPTH));
        jcmd(jcmd, pid, List.of("JFR.start", "name=" + RECORDING, "settings=profile"));
        return new Recording(jcmd, pid, System.nanoTime());
    }

    /** Stops the recording into the cell's folder and writes both graphs; failures become the result's reason. */
    Result finish(Recording recording, String cellName, String title) {
        Path dir = runDir.resolve("flamegraphs").resolve(cellName);
        Path jfr = dir.resolve("recording.jfr");
        double recorded = (System.nanoTime() - recording.startedNanos()) / 1e9;
        try {
            Files.createDirectories(dir);
            if (user.isPresent()) {
                // The service writes the recording where it may, the runner copies it into the run.
                Path written = user.get().session().resolve("jfr").resolve(cellName + ".jfr");
                user.get().mkdirs(written.getParent());
                try {
                    jcmd(recording.jcmd(), recording.pid(), List.of("JFR.stop", "name=" + RECORDING,
                            "filename=" + written));
                    user.get().copyOut(written, jfr);
                } finally {
                    user.get().remove(written);
                }
            } else {
                jcmd(recording.jcmd(), recording.pid(), List.of("JFR.stop", "name=" + RECORDING,
                        "filename=" + jfr.toAbsolutePath()));
            }
            if (!Files.isRegularFile(jfr)) {
                return Result.absent("JFR.stop wrote no recording");
            }
            convert(jfr, dir.resolve("cpu.html"), "--cpu", title + " — CPU (JFR execution samples)");
            convert(jfr, dir.resolve("alloc.html"), "--alloc", title + " — allocation (JFR samples at TLAB refills)");
            convert(jfr, dir.resolve("cpu.collapsed.txt"), "--cpu", null);
            convert(jfr, dir.resolve("alloc.collapsed.txt"), "--alloc", null);
            return new Result(runDir.relativize(dir.resolve("cpu.html")).toString(),
                    runDir.relativize(dir.resolve("alloc.html")).toString(),
                    runDir.relativize(jfr).toString(), recorded, null);
        } catch (IOException | RuntimeException e) {
            return Result.absent("flame graphs failed: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Result.absent("interrupted");
        }
    }

    /** async-profiler's converter: HTML by the output's extension, collapsed stacks (text) otherwise. */
    static void convert(Path jfr, Path out, String kind, String title) throws IOException {
        // Samples are counted. JFR takes an allocation sample when a thread needs a new TLAB (or allocates outside
        // one), throttled in time, so counts follow the bytes allocated; the samples' own weights (--total) summed to
        // 5-10x the bytes the service's allocation counter saw over the same window (JDK 17), so they are not used.
        // The converter 4.2 drops every JDK execution sample under --cpu unless a thread state is named.
        List<String> args = new ArrayList<>(kind.equals("--alloc") ? List.of(kind)
                : List.of(kind, "--state", "runnable"));
        if (title != null) {
            args.addAll(List.of("--title", title));
        } else {
            args.addAll(List.of("-o", "collapsed"));
        }
        args.add(jfr.toString());
        args.add(out.toString());
        Arguments arguments = new Arguments(args.toArray(String[]::new));
        JfrToFlame.convert(jfr.toString(), out.toString(), arguments);
    }

    private void jcmd(Path jcmd, long pid, List<String> command) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(List.of(jcmd.toString(), Long.toString(pid)));
        argv.addAll(command);
        if (user.isPresent()) {
            Path session = user.get().session();
            argv = user.get().command(argv, Map.of(), session, session);
        }
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        if (!process.waitFor(JCMD_TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException(String.join(" ", command) + ": jcmd did not finish in " + JCMD_TIMEOUT_S + " s");
        }
        String output = new String(process.getInputStream().readAllBytes()).strip();
        if (process.exitValue() != 0 || output.contains("Could not") || output.contains("Exception")) {
            throw new IOException("jcmd " + String.join(" ", command) + " (exit " + process.exitValue() + "): "
                    + output);
        }
    }
}
