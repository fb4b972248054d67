package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.VerdictRule;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class DrillCommandTest {

    @Test
    void reportsFalseAlarmsAndDetectionsFromTheFourCopies() {
        Random random = new Random(21);
        ObjectNode raw = RunFixtures.run("drill", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "smoke",
                Map.of("cpu_us_per_req", RunFixtures.normal(random, 300, 0.01, 10)));
        ArrayNode cells = (ArrayNode) raw.get("cells");
        ObjectNode template = (ObjectNode) cells.remove(0);
        Map<String, Double> levels = Map.of("a", 300.0, "b", 300.0, "slow5", 315.0, "slow10", 330.0);
        for (String label : new String[] {"a", "b", "slow5", "slow10"}) {
            ObjectNode cell = template.deepCopy();
            cell.put("variant", "jersey--" + label);
            ArrayNode values = ((ObjectNode) cell.get("metrics").get("cpu_us_per_req")).putArray("values");
            for (double v : RunFixtures.normal(random, levels.get(label), 0.01, 10)) {
                values.add(v);
            }
            cells.add(cell);
        }

        String report = DrillCommand.report(RunFixtures.record(raw), 5, 100, 1, new VerdictRule());

        assertThat(report).contains("| jersey/read-heavy/latency/cpu_us_per_req | 10/10/10/10 | ");
        var summary = java.util.regex.Pattern.compile("- cpu_us_per_req: false alarms ([0-9.]+) % \\(n=100\\), "
                + "detection of 5 % ([0-9.]+) % \\(n=100\\), of 10 % ([0-9.]+) % \\(n=100\\)").matcher(report);
        assertThat(summary.find()).as(report).isTrue();
        // Same build vs itself: no alarm; 10 σ slower: always; 5 σ slower: nearly always (one fixed sample of 10).
        assertThat(Double.parseDouble(summary.group(1))).isZero();
        assertThat(Double.parseDouble(summary.group(2))).isGreaterThan(80.0);
        assertThat(Double.parseDouble(summary.group(3))).isEqualTo(100.0);
        assertThat(report).contains("| 0.0 % (0/100; disjoint 0/2) |");
    }
}
