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
