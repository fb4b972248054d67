package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** `./bench run`'s options as picocli parses them into {@link RunOptions}. */
class RunCommandTest {

    /** The options `./bench run args…` runs with. */
    static RunOptions options(String... args) {
        RunCommand command = new RunCommand();
        new CommandLine(command).setOverwrittenOptionsAllowed(true).parseArgs(args);
        return command.options();
    }

    @Test
    void defaultsAreTheCheckoutsManifestResultsAndHistory() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        RunOptions options = options("--root", "..");
        assertThat(options.root()).isEqualTo(root);
        assertThat(options.manifest()).isEqualTo(root.resolve("benchmarks.json"));
        assertThat(options.resultsDir()).isEqualTo(root.resolve("results"));
        assertThat(options.history()).contains(root.resolve("history"));
        assertThat(options.profile()).isEmpty();
        assertThat(options.seed()).isEmpty();
        assertThat(options.tables()).isEqualTo(RunOptions.Tables.ANSWER);
        assertThat(options.dryRun()).isFalse();
        assertThat(options.missingRuntimes()).isEqualTo(RunOptions.MissingRuntimes.REFUSE);
    }

    @Test
    void missingRuntimesIsRefuseOrRecord() {
        assertThat(options("--missing-runtimes", "record").missingRuntimes()).isEqualTo(RunOptions.MissingRuntimes.RECORD);
        assertThat(options("--missing-runtimes=refuse").missingRuntimes()).isEqualTo(RunOptions.MissingRuntimes.REFUSE);
        assertThatThrownBy(() -> options("--missing-runtimes", "skip")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--missing-runtimes").hasMessageContaining("must be refuse or record, was 'skip'");
    }

    @Test
    void givenResultsOrNoHistoryKeepTheRunOutOfTheLocalHistory() {
        assertThat(options("--results", "out").history()).isEmpty();
        assertThat(options("--no-history").history()).isEmpty();
        assertThat(options("--results", "out", "--history", "h").history()).contains(Path.of("h"));
    }

    @Test
    void listsAreSplitOnCommasAndWhereRepeats() {
        RunOptions options = options("--variants", "jersey, express,", "--where", "server=*", "--where=jdk=25",
                "--scenarios=mixed", "--seed", "-3", "--full-tables", "--dry-run");
        assertThat(options.variants()).containsExactly("jersey", "express");
        assertThat(options.where()).containsExactly("server=*", "jdk=25");
        assertThat(options.scenarios()).containsExactly("mixed");
        assertThat(options.seed()).isEqualTo(Optional.of(-3L));
        assertThat(options.tables()).isEqualTo(RunOptions.Tables.FULL);
        assertThat(options.dryRun()).isTrue();
    }

    /** A slice of a profile's regimes, in the profile's order; a regime the profile lacks is a usage error. */
    @Test
    void regimesSelectASliceOfTheProfiles() {
        Path root = Path.of("..").toAbsolutePath().normalize();
        dev.restbench.manifest.Manifest manifest = dev.restbench.runner.manifest.Manifests.load(
                root.resolve("benchmarks.json"));
        RunSelection all = RunSelection.of(manifest, options("--root", root.toString(), "--profile", "no-database"));
        assertThat(all.regimes()).containsExactly("capacity", "latency");
        RunSelection capacity = RunSelection.of(manifest, options("--root", root.toString(), "--profile",
                "no-database", "--regimes", "capacity"));
        assertThat(capacity.regimes()).containsExactly("capacity");
        assertThat(capacity.plan().trials()).allSatisfy(t -> assertThat(t.cells())
                .allSatisfy(c -> assertThat(c.regime()).isEqualTo("capacity")));
        assertThatThrownBy(() -> RunSelection.of(manifest, options("--root", root.toString(), "--profile", "sweep",
                "--regimes", "capacity")))
                .isInstanceOf(dev.restbench.runner.UsageException.class)
                .hasMessageStartingWith("--regimes: 'capacity' is not a regime of profile sweep (it has: users-10,");
    }

    @Test
    void anOptionGivenTwiceTakesTheLastValue() {
        assertThat(options("--profile", "smoke", "--profile", "full").profile()).contains("full");
    }

    @Test
    void aFlagTakesNoValueAndANumberMustBeOne() {
        assertThatThrownBy(() -> options("--dry-run=true")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--dry-run");
        assertThatThrownBy(() -> options("--seed", "soon")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("--seed").hasMessageContaining("soon");
        assertThatThrownBy(() -> options("--variants", "a", "extra")).isInstanceOf(CommandLine.ParameterException.class)
                .hasMessageContaining("extra");
        assertThat(options("--services", "jersey=http://127.0.0.1:8081/", "--database-url", "jdbc:postgresql://x/y")
                .services()).isEqualTo(java.util.Map.of("jersey", "http://127.0.0.1:8081"));
        assertThat(List.of(options("--no-tables").tables())).containsExactly(RunOptions.Tables.NONE);
    }
}
