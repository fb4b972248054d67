package dev.restbench.runner.run;

import dev.restbench.runner.UsageException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The host checks itself: a fixed single-threaded CPU workload on the service's core at the start and at the end of
 * every run (the calibration probe), the steal time of that core over the run from /proc/stat, and its clock where
 * the kernel shows one. The start's speed, in classes 25 % wide, joins the environment fingerprint: a slower host
 * starts a new series even when its CPU model string is generic ("AMD EPYC Processor"); a host that states its own
 * speed ({@link #REFERENCE_ENV}) keeps that speed's class while its probe stays near it. A probe that moved by more
 * than {@link #MAX_PROBE_CHANGE_PCT} between start and end, or steal above {@link #MAX_STEAL_PCT}, says the machine
 * changed under the run; such a run's verdicts are withheld (analysis.RunRecord#hostProblem), except that an A/B,
 * whose rounds pair head and base starts, states a drifted probe instead of withholding on it.
 *
 * <p>The workload is an integer recurrence in awk (two million steps, ~0.25 s here), run {@value #REPEATS} times
 * pinned with taskset; the fastest counts (interference only slows a run down). Measured on this project's 2-core
 * boxes: six quiet runs within 1 % of each other (0.24–0.25 s) on 2026-11-27, but the repeats of nine drill runs'
 * start probes of 2026-12-03…07 spread by 1.6–25 %.
 */
public final class HostCheck {

    /** How far the probe may move between the start and the end of a run before its history verdict is withheld. */
    public static final double MAX_PROBE_CHANGE_PCT = 10;
    /** Steal time on the service's core over the run, in % of its time, above which its verdicts are withheld. */
    public static final double MAX_STEAL_PCT = 2;
    /**
     * Other work on the service's cores during a measured start, in % of them, above which the run's verdicts are
     * withheld. Quiet, this box showed 1.4–3.9 % per start in four drill sittings (interrupts of the service's own
     * traffic); a build beside a drill 3–49 %.
     */
    public static final double MAX_OTHERS_PCT = 10;
    /** Width of a speed class: a factor of 1.25 (a host 25 % slower is another class). */
    static final double CLASS_WIDTH = 1.25;
    /**
     * The host's own probe speed in million steps per second, set in a benchmark host's environment
     * (docs/runner-host.md): while a run's start probe stays within half a class of it, the run records the
     * reference's class ({@link #speedClass(Probe, Double)}).
     */
    public static final String REFERENCE_ENV = "BENCH_HOST_SPEED_MOPS";

    private static final int STEPS = 2_000_000;
    private static final int REPEATS = 5;
    private static final String PROGRAM = "BEGIN { x = 1; for (i = 0; i < " + STEPS + "; i++)"
            + " x = (x * 1103515245 + 12345) % 2147483648; print x }";

    /** One probe: the fastest of its repeats in millions of steps per second, and how far the slowest was behind. */
    public record Probe(double mops, double spreadPct, Double clockMhz) {
    }

    /**
     * What the run records: both probes, their change, the steal of the core over the run, and the most that other
     * work (processes, interrupts, steal) took of the service's cores in a measured start ({@code othersPct}, where:
     * {@code othersWhere}), from each start's utilisation (busy minus the service's own CPU).
     */
    public record Report(Integer cpu, Probe start, Probe end, Double changePct, Double stealPct, Double othersPct,
                         String othersWhere, Double referenceMops) {

        /** The reason this run's verdicts must be withheld, or null. */
        public String problem() {
            if (changePct != null && Math.abs(changePct) > MAX_PROBE_CHANGE_PCT) {
                return String.format(Locale.ROOT, "the host's calibration probe moved %+.1f %% between the start and"
                        + " the end of the run (more than %.0f %%)", changePct, MAX_PROBE_CHANGE_PCT);
            }
            if (stealPct != null && stealPct > MAX_STEAL_PCT) {
                return String.format(Locale.ROOT, "the hypervisor took %.1f %% of the service's core (steal, more"
                        + " than %.0f %%)", stealPct, MAX_STEAL_PCT);
            }
            if (othersPct != null && othersPct > MAX_OTHERS_PCT) {
                return String.format(Locale.ROOT, "other work took %.0f %% of the service's core during a start of"
                        + " %s (more than %.0f %%)", othersPct, othersWhere, MAX_OTHERS_PCT);
            }
            return null;
        }

        Map<String, Object> toJson() {
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("cpu", cpu);
            out.put("start", probe(start));
            out.put("end", probe(end));
            out.put("changePct", round(changePct));
            out.put("stealPct", round(stealPct));
            out.put("othersPct", round(othersPct));
            out.put("othersWhere", othersWhere);
            out.put("referenceMops", referenceMops);
            Map<String, Object> limits = new LinkedHashMap<>();
            limits.put("probeChangePct", MAX_PROBE_CHANGE_PCT);
            limits.put("stealPct", MAX_STEAL_PCT);
            limits.put("othersPct", MAX_OTHERS_PCT);
            out.put("limits", limits);
            out.put("problem", problem());
            return out;
        }

        private static Map<String, Object> probe(Probe p) {
            if (p == null) {
                return null;
            }
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("mops", round(p.mops()));
            out.put("spreadPct", round(p.spreadPct()));
            out.put("clockMhz", p.clockMhz());
            return out;
        }
    }

    private final Integer cpu;
    private final Double referenceMops;
    private Probe start;
    private long[] stealAtStart;

    /** @param cpuSet the service's CPU set ("1", "2-3", "0,2"), or null: the probe then runs unpinned */
    HostCheck(String cpuSet) {
        this(cpuSet, null);
    }

    /**
     * @param cpuSet        the service's CPU set ("1", "2-3", "0,2"), or null: the probe then runs unpinned
     * @param referenceMops the host's reference speed ({@link #REFERENCE_ENV}), or null
     */
    HostCheck(String cpuSet, Double referenceMops) {
        this.cpu = firstCpu(cpuSet);
        this.referenceMops = referenceMops;
    }

    /** The reference speed this process's environment states ({@link #REFERENCE_ENV}), as {@link #reference}. */
    public static Double referenceFromEnvironment() {
        return reference(System.getenv(REFERENCE_ENV));
    }

    /**
     * The reference speed a value of {@link #REFERENCE_ENV} gives: null when unset or blank.
     *
     * @throws UsageException when it is not a positive number: a host that meant to pin its class must not
     *                        silently fall back to the probe's own
     */
    public static Double reference(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        double mops;
        try {
            mops = Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            mops = Double.NaN;
        }
        if (!(mops > 0) || Double.isInfinite(mops)) {
            throw new UsageException(REFERENCE_ENV + " must be this host's calibration probe speed in million steps"
                    + " per second, a positive number such as 7.4 (docs/runner-host.md), not \"" + value + "\"");
        }
        return mops;
    }

    /** The probe at the start of the run; its speed class is the fingerprint's ("unknown" without awk). */
    String begin() {
        stealAtStart = steal(cpu);
        start = probe(cpu).orElse(null);
        return speedClass(start, referenceMops);
    }

    /** The start probe in words, for the run's log: its speed, its class and how the reference decided it. */
    String startSummary() {
        if (start == null) {
            return "calibration probe gave no speed (awk or taskset missing or failing), speed class unknown";
        }
        String line = String.format(Locale.ROOT, "calibration probe %.2f million steps/s, speed class %s",
                start.mops(), speedClass(start, referenceMops));
        if (referenceMops == null) {
            return line;
        }
        return line + String.format(Locale.ROOT, " (%+.1f %% from this host's reference %.2f, %s: %s)",
                (start.mops() / referenceMops - 1) * 100, referenceMops, REFERENCE_ENV,
                withinReference(start, referenceMops) ? "within half a class, so the reference's class"
                        : "more than half a class, so the probe's own class");
    }

    /**
     * The probe at the end, and the run's report.
     *
     * @param others per measured start ("variant/scenario/regime start n"), the share of the service's cores other
     *               work took (0–1)
     */
    Report end(Map<String, Double> others) {
        Probe end = probe(cpu).orElse(null);
        Map.Entry<String, Double> most = others.entrySet().stream().max(Map.Entry.comparingByValue()).orElse(null);
        long[] stealAtEnd = steal(cpu);
        Double change = start == null || end == null ? null : (end.mops() / start.mops() - 1) * 100;
        Double stealPct = null;
        if (stealAtStart != null && stealAtEnd != null && stealAtEnd[1] > stealAtStart[1]) {
            stealPct = 100.0 * (stealAtEnd[0] - stealAtStart[0]) / (stealAtEnd[1] - stealAtStart[1]);
        }
        return new Report(cpu, start, end, change, stealPct, most == null ? null : most.getValue() * 100,
                most == null ? null : most.getKey(), referenceMops);
    }

    /** "c&lt;k&gt;": the probe's speed in classes of {@link #CLASS_WIDTH} (k = floor(log(mops) / log 1.25)). */
    static String speedClass(Probe probe) {
        return speedClass(probe, null);
    }

    /**
     * The probe's class, or the host's reference's while the probe is within half a class of it (a factor of √1.25
     * either way: +11.8 %, −10.6 %). Fixed boundaries split one machine's runs into two series when its probe sits
     * near one, and this project's box does: its start probes read 6.8–7.9 million steps per second in nine drill
     * runs, either side of c8/c9's 7.45 (c8 seven times, c9 twice). A host that states its speed keeps one series
     * while it keeps that speed; a probe beyond half a class from it gets its own class, since the host has changed.
     */
    static String speedClass(Probe probe, Double referenceMops) {
        if (probe == null) {
            return "unknown";
        }
        double mops = referenceMops != null && withinReference(probe, referenceMops) ? referenceMops : probe.mops();
        return "c" + (int) Math.floor(Math.log(mops) / Math.log(CLASS_WIDTH));
    }

    private static boolean withinReference(Probe probe, double referenceMops) {
        return Math.abs(Math.log(probe.mops() / referenceMops)) <= Math.log(CLASS_WIDTH) / 2;
    }

    static Optional<Probe> probe(Integer cpu) {
        List<Double> seconds = new ArrayList<>();
        for (int i = 0; i < REPEATS; i++) {
            List<String> command = new ArrayList<>();
            if (cpu != null) {
                command.addAll(List.of("taskset", "-c", Integer.toString(cpu)));
            }
            command.addAll(List.of("awk", PROGRAM));
            try {
                long t0 = System.nanoTime();
                Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
                String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (process.waitFor() != 0 || output.isEmpty()) {
                    return Optional.empty();
                }
                seconds.add((System.nanoTime() - t0) / 1e9);
            } catch (IOException e) {
                return Optional.empty(); // no awk or taskset: no probe, the report says so (null)
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        }
        double fastest = seconds.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        double slowest = seconds.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        return Optional.of(new Probe(STEPS / fastest / 1e6, (slowest / fastest - 1) * 100, clockMhz(cpu)));
    }

    /** [steal, total] ticks of the CPU (of all CPUs without one) since boot; null off Linux. */
    static long[] steal(Integer cpu) {
        try {
            String label = cpu == null ? "cpu" : "cpu" + cpu;
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals(label) && f.length > 8) {
                    long total = 0;
                    for (int i = 1; i < f.length; i++) {
                        total += Long.parseLong(f[i]);
                    }
                    return new long[] {Long.parseLong(f[8]), total};
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return null;
    }

    /** The core's current clock: cpufreq where the kernel has it, else /proc/cpuinfo; null when neither says. */
    static Double clockMhz(Integer cpu) {
        int n = cpu == null ? 0 : cpu;
        try {
            Path freq = Path.of("/sys/devices/system/cpu/cpu" + n + "/cpufreq/scaling_cur_freq");
            if (Files.isReadable(freq)) {
                return Long.parseLong(Files.readString(freq).trim()) / 1000.0;
            }
            int processor = -1;
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("processor")) {
                    processor = Integer.parseInt(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("cpu MHz") && processor == n) {
                    return Double.parseDouble(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            // not readable here
        }
        return null;
    }

    static Integer firstCpu(String cpuSet) {
        if (cpuSet == null || cpuSet.isBlank() || cpuSet.equals("external")) {
            return null;
        }
        String first = cpuSet.split("[,-]")[0].trim();
        try {
            return Integer.parseInt(first);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static Double round(Double value) {
        return value == null ? null : Math.round(value * 1000) / 1000.0;
    }
}
