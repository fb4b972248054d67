package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

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
        assertThat(new HostCheck.Report(1, PROBE, PROBE, -0.1, 0.0, 0.8, "jersey/mixed/capacity start 1").problem())
                .isNull();
        assertThat(new HostCheck.Report(1, PROBE, PROBE, -12.0, 0.0, 0.8, "x").problem())
                .contains("probe moved -12.0 %");
        assertThat(new HostCheck.Report(1, PROBE, PROBE, 0.0, 3.5, 0.8, "x").problem()).contains("steal");
        assertThat(new HostCheck.Report(1, PROBE, PROBE, 0.0, 0.0, 27.3, "jersey/mixed/capacity start 1").problem())
                .isEqualTo("other work took 27 % of the service's core during a start of jersey/mixed/capacity"
                        + " start 1 (more than 10 %)");
        // Without /proc or awk nothing is known, and nothing is withheld for it.
        assertThat(new HostCheck.Report(null, null, null, null, null, null, null).problem()).isNull();
    }
}
