package dev.restbench.runner.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.restbench.runner.analysis.RunFixtures;
import dev.restbench.runner.analysis.RunRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class FlameGraphComparisonTest {

    @TempDir
    Path runDir;

    /** A two-round A/B record: jersey profiled in round 0 on both sides, spring-mvc on the base side only. */
    private RunRecord record() {
        ObjectNode run = RunFixtures.empty("ab", "abc", "2026-11-20T00:00:00Z", RunFixtures.FINGERPRINT, "quick");
        for (String variant : List.of("jersey--base", "jersey--head", "spring-mvc--base", "spring-mvc--head")) {
            ObjectNode cell = ((ArrayNode) run.get("cells")).addObject();
            cell.put("variant", variant).put("scenario", "read-heavy").put("regime", "capacity");
            ArrayNode trials = cell.putArray("trials");
            for (int round = 0; round < 2; round++) {
                ObjectNode trial = trials.addObject().put("trial", round).put("round", round);
                String dir = "flamegraphs/" + variant + "-read-heavy-capacity-s" + (round + 1) + "/";
                if (round == 0 && !variant.equals("spring-mvc--head")) {
                    trial.putObject("flameGraphs").put("cpu", dir + "cpu.html").put("alloc", dir + "alloc.html");
                } else {
                    trial.putNull("flameGraphs");
                }
            }
        }
        return RunRecord.of(run, "test");
    }

    @Test
    void pairsTheSidesOfOneRoundAndNamesThePageFromTheCellAlone() {
        Map<String, FlameGraphComparison.Pair> pairs = FlameGraphComparison.pairs(record());
        assertThat(pairs).containsOnlyKeys("jersey/read-heavy/capacity");
        FlameGraphComparison.Pair pair = pairs.get("jersey/read-heavy/capacity");
        assertThat(pair.page()).isEqualTo("flamegraphs/ab/jersey-read-heavy-capacity.html");
        assertThat(pair.round()).isZero();
        assertThat(pair.base().cpu()).isEqualTo("flamegraphs/jersey--base-read-heavy-capacity-s1/cpu.html");
        assertThat(pair.head().cpu()).isEqualTo("flamegraphs/jersey--head-read-heavy-capacity-s1/cpu.html");
    }

    @Test
    void thePageShowsBothGraphsAndRanksTheFramesWhoseShareChangedMost() throws Exception {
        // base: 100 samples, 20 in Json.write; head: 100 samples, 50 in Json.write (+30 points), Db.query 40 → 20.
        collapsed("jersey--base", "cpu", """
                Thread.run;Handler.handle;Json.write 20
                Thread.run;Handler.handle;Db.query 40
                Thread.run;Handler.handle;Item.<init> 40
                """);
        collapsed("jersey--head", "cpu", """
                Thread.run;Handler.handle;Json.write 50
                Thread.run;Handler.handle;Db.query 20
                Thread.run;Handler.handle;Item.<init> 30
                """);
        collapsed("jersey--base", "alloc", "Thread.run;byte[] 10\n");
        collapsed("jersey--head", "alloc", "Thread.run;byte[] 10\n");

        assertThat(FlameGraphComparison.write(runDir, record())).isEqualTo(1);
        String page = Files.readString(runDir.resolve("flamegraphs/ab/jersey-read-heavy-capacity.html"));
        assertThat(page).contains("src=\"../../flamegraphs/jersey--base-read-heavy-capacity-s1/cpu.html\"",
                "src=\"../../flamegraphs/jersey--head-read-heavy-capacity-s1/cpu.html\"",
                "src=\"../../flamegraphs/jersey--head-read-heavy-capacity-s1/alloc.html\"");
        String grew = page.substring(page.indexOf("CPU: grew most in head"), page.indexOf("CPU: shrank most in head"));
        assertThat(grew).contains("<td class=\"frame\">Json.write</td><td>20.0 %</td><td>50.0 %</td><td>+30.0</td>")
                .doesNotContain("Db.query").doesNotContain("Thread.run");
        String shrank = page.substring(page.indexOf("CPU: shrank most in head"), page.indexOf("<h2>Allocation"));
        assertThat(shrank.indexOf("Db.query")).isLessThan(shrank.indexOf("Item.&lt;init&gt;")).isPositive();
        assertThat(page).doesNotContain("Item.<init>");
        assertThat(page).contains("Allocation: grew most in head").contains("(none)");
        // 100 samples a side: 2 × sqrt(0.25 × 0.75 × (1/100 + 1/100)) = 12.2 points.
        assertThat(page).contains("CPU samples: base 100, head 100. With these counts a frame near a 25 % share moves"
                + " by up to ±12.2 points");
    }

    @Test
    void aFrameIsTheSameMethodWhateverItsCompilationStateAndTheJvmStart() {
        assertThat(FlameGraphComparison.frame("org/postgresql/core/VisibleBufferedInputStream.read_[j]"))
                .isEqualTo(FlameGraphComparison.frame("org/postgresql/core/VisibleBufferedInputStream.read_[i]"))
                .isEqualTo("org.postgresql.core.VisibleBufferedInputStream.read");
        assertThat(FlameGraphComparison.frame("org.glassfish.jersey.Factory$$Lambda$631+0x00007fbd18346ee8/635068762.invoke_[j]"))
                .isEqualTo(FlameGraphComparison.frame("org.glassfish.jersey.Factory$$Lambda$640+0x00007fa494346ee8/1234.invoke_[i]"))
                .isEqualTo("org.glassfish.jersey.Factory$$Lambda.invoke");
        assertThat(FlameGraphComparison.frame("org.glassfish.jersey.Factory$$Lambda/0x000071a2c8123456.apply"))
                .isEqualTo("org.glassfish.jersey.Factory$$Lambda.apply");
        assertThat(FlameGraphComparison.frame("jdk/internal/reflect/GeneratedMethodAccessor17.invoke_[j]"))
                .isEqualTo("jdk.internal.reflect.GeneratedMethodAccessor.invoke");
        assertThat(FlameGraphComparison.frame("sun/nio/ch/EPoll.wait")).isEqualTo("sun.nio.ch.EPoll.wait");
        assertThat(FlameGraphComparison.frame("byte[]")).isEqualTo("byte[]");
    }

    private void collapsed(String variant, String kind, String text) throws Exception {
        Path dir = runDir.resolve("flamegraphs/" + variant + "-read-heavy-capacity-s1");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(kind + ".collapsed.txt"), text);
        Files.writeString(dir.resolve(kind + ".html"), "<html>graph</html>");
    }
}
