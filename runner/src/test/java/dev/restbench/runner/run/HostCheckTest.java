package dev.restbench.runner.run;

import dev.restbench.runner.UsageException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The host's self-check: the probe really runs, and each of its limits withholds the run's verdicts. */
class HostCheckTest {

    private static final HostCheck.Probe PROBE = new HostCheck.Probe(8.0, 1, 2600.0);

    @Test
    void theProbeRunsPinnedAndMeasuresASpeed() {
        // A real run of the workload (awk and taskset are on every Linux runner): a few million steps per second.
        HostCheck.Probe probe = HostCheck.probe(0).orElseThrow();
        assertThat(probe.mops()).isBetween(0.1, 1000.0);
        assertThat(probe.spreadPct()).isGreaterThanOrEqualTo(0);
        HostCheck check = new HostCheck("0");
        assertThat(check.begin()).matches("c-?\\d+");
        HostCheck.Report report = check.end(Map.of());
        assertThat(report.cpu()).isZero();
        assertThat(report.changePct()).isNotNull();
        assertThat(report.othersPct()).isNull();
    }

    @Test
    void speedClassesAreAQuarterWide() {
        assertThat(HostCheck.speedClass(new HostCheck.Probe(1.0, 0, null))).isEqualTo("c0");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(1.24, 0, null))).isEqualTo("c0");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(1.26, 0, null))).isEqualTo("c1");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.94, 0, null))).isEqualTo("c9");
        // A host 25 % slower is another class, whatever its CPU model string says.
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.94 / 1.25, 0, null))).isEqualTo("c8");
        assertThat(HostCheck.speedClass(null)).isEqualTo("unknown");
    }

    /**
     * The start probes of nine drill runs (2026-12-03…07), either side of c8/c9's boundary at 1.25⁹ = 7.45: by their
     * own classes two series, by a reference within half a class of them all one.
     */
    @Test
    void aHostsReferenceSpeedKeepsItsRunsInOneClassAcrossABoundary() {
        double[] probes = {7.303, 7.871, 7.374, 7.06, 7.111, 7.153, 7.597, 6.82, 7.437};
        java.util.Set<String> own = new java.util.TreeSet<>();
        java.util.Set<String> referenced = new java.util.TreeSet<>();
        for (double mops : probes) {
            own.add(HostCheck.speedClass(new HostCheck.Probe(mops, 0, null)));
            referenced.add(HostCheck.speedClass(new HostCheck.Probe(mops, 0, null), 7.3));
        }
        assertThat(own).containsExactly("c8", "c9");
        assertThat(referenced).containsExactly("c8");
        // Beyond half a class (a factor of √1.25: +11.8 %, −10.6 %) the host has changed: the probe's own class.
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.3 * 1.13, 0, null), 7.3)).isEqualTo("c9");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.3 * 1.11, 0, null), 7.3)).isEqualTo("c8");
        // 7.9 is c9 and 7.9 / 1.2 its own c8: beyond the band the probe's class, not the reference's.
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.9 / 1.2, 0, null), 7.9)).isEqualTo("c8");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.3 / 1.3, 0, null), 7.3)).isEqualTo("c7");
        // Downward too, a factor of √1.25 (−10.6 %): 7.5 is c9, 7.5 / 1.11 alone would be c8.
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.5 / 1.11, 0, null), 7.5)).isEqualTo("c9");
        assertThat(HostCheck.speedClass(new HostCheck.Probe(7.5 / 1.13, 0, null), 7.5)).isEqualTo("c8");
        assertThat(HostCheck.speedClass(null, 7.3)).isEqualTo("unknown");
    }

    @Test
    void aReferenceSpeedMustBeAPositiveNumber() {
        assertThat(HostCheck.reference(null)).isNull();
        assertThat(HostCheck.reference(" ")).isNull();
        assertThat(HostCheck.reference(" 7.4 ")).isEqualTo(7.4);
        for (String bad : List.of("fast", "0", "-7.4", "NaN", "Infinity", "7,4")) {
            assertThatThrownBy(() -> HostCheck.reference(bad)).as(bad).isInstanceOf(UsageException.class)
                    .hasMessageContaining("BENCH_HOST_SPEED_MOPS").hasMessageContaining("\"" + bad + "\"");
        }
    }

    /** The value is read before anything is built or started: a dry run already refuses it, with exit 2. */
    @Test
    void aMalformedStatedSpeedStopsARunBeforeItsPlan() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")),
                "-Drestbench.root=" + BrokenVariantTest.ROOT, "dev.restbench.runner.Main", "run", "--root",
                BrokenVariantTest.ROOT.toString(), "--dry-run").redirectErrorStream(true);
        builder.environment().put(HostCheck.REFERENCE_ENV, "7,4");
        Process bench = builder.start();
        String out = new String(bench.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(bench.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(bench.exitValue()).as(out).isEqualTo(2);
        assertThat(out).contains("BENCH_HOST_SPEED_MOPS must be this host's calibration probe speed")
                .contains("not \"7,4\"").doesNotContain("variants (runtime on this machine, artifact)");
    }

    @Test
    void theRunRecordsTheReferenceAndSaysHowItDecidedTheClass() {
        HostCheck check = new HostCheck("0", 1000.0);
        // The real probe reads a few million steps per second: far from 1,000, so its own class.
        assertThat(check.begin()).matches("c-?\\d+").isNotEqualTo(HostCheck.speedClass(new HostCheck.Probe(1000, 0, null)));
        assertThat(check.startSummary()).startsWith("calibration probe ").contains("from this host's reference 1000.00,"
                + " BENCH_HOST_SPEED_MOPS: more than half a class, so the probe's own class");
        HostCheck.Report report = check.end(Map.of());
        assertThat(report.referenceMops()).isEqualTo(1000.0);
        assertThat(report.toJson()).containsEntry("referenceMops", 1000.0);
        assertThat(new HostCheck("0").end(Map.of()).toJson()).containsEntry("referenceMops", null);
    }

    @Test
    void theFirstCpuOfTheServicesSetIsProbed() {
        assertThat(HostCheck.firstCpu("1")).isEqualTo(1);
        assertThat(HostCheck.firstCpu("2-3")).isEqualTo(2);
        assertThat(HostCheck.firstCpu("4,6")).isEqualTo(4);
        assertThat(HostCheck.firstCpu("external")).isNull();
        assertThat(HostCheck.firstCpu(null)).isNull();
    }

    @Test
    void eachLimitWithholdsTheVerdictsAndACleanRunHasNoProblem() {
        assertThat(new HostCheck.Report(1, PROBE, PROBE, -0.1, 0.0, 0.8, "jersey/mixed/capacity start 1", null).problem())
                .isNull();
        assertThat(new HostCheck.Report(1, PROBE, PROBE, -12.0, 0.0, 0.8, "x", null).problem())
                .contains("probe moved -12.0 %");
        assertThat(new HostCheck.Report(1, PROBE, PROBE, 0.0, 3.5, 0.8, "x", null).problem()).contains("steal");
        assertThat(new HostCheck.Report(1, PROBE, PROBE, 0.0, 0.0, 27.3, "jersey/mixed/capacity start 1", null).problem())
                .isEqualTo("other work took 27 % of the service's core during a start of jersey/mixed/capacity"
                        + " start 1 (more than 10 %)");
        // Without /proc or awk nothing is known, and nothing is withheld for it.
        assertThat(new HostCheck.Report(null, null, null, null, null, null, null, null).problem()).isNull();
    }
}
