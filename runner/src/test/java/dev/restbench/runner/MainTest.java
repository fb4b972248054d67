package dev.restbench.runner;

import dev.restbench.runner.Bench.Result;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** `./bench`'s command line: the overview, every command's help, and usage errors (exit 2). */
class MainTest {

    @Test
    void theOverviewListsEveryCommandWithItsSummary() {
        Map<String, CommandLine> commands = Main.commandLine().getSubcommands();
        assertThat(commands.keySet()).containsExactly("run", "build", "compose", "start", "history", "compare",
                "spread", "answer", "ab", "drill", "site", "db", "merge", "help");
        for (String args : List.of("--help", "-h", "help")) {
            Result result = Bench.run(args);
            assertThat(result.exit()).as(args).isZero();
            assertThat(result.err()).isEmpty();
            assertThat(result.out()).startsWith("usage: ./bench [command] [options]");
            commands.forEach((name, command) -> assertThat(result.out())
                    .contains("  " + name + " ")
                    .contains(command.getCommandSpec().usageMessage().header()[0].substring(0, 40)));
        }
    }

    @Test
    void everyCommandsHelpRendersAndListsItsOptions() {
        List<List<String>> paths = new ArrayList<>();
        collect(Main.commandLine(), List.of(), paths);
        assertThat(paths).contains(List.of("run"), List.of("history", "append"), List.of("db", "load"));
        for (List<String> path : paths) {
            CommandLine command = Main.commandLine();
            for (String name : path) {
                command = command.getSubcommands().get(name);
            }
            List<String> argv = new ArrayList<>(path);
            argv.add("--help");
            Result result = Bench.run(argv.toArray(String[]::new));
            assertThat(result.exit()).as(String.join(" ", argv)).isZero();
            assertThat(result.err()).as(String.join(" ", argv)).isEmpty();
            assertThat(result.out()).as(String.join(" ", argv))
                    .contains("usage: ./bench " + String.join(" ", path))
                    .contains("options:");
            for (OptionSpec option : command.getCommandSpec().options()) {
                assertThat(result.out()).as(String.join(" ", argv)).contains(option.longestName());
                if (!option.usageHelp()) {
                    assertThat(option.description()).as(option.longestName()).isNotEmpty();
                }
            }
        }
    }

    private static void collect(CommandLine command, List<String> path, List<List<String>> paths) {
        command.getSubcommands().forEach((name, sub) -> {
            if (sub.getCommandSpec().helpCommand()) {
                return;
            }
            List<String> subPath = new ArrayList<>(path);
            subPath.add(name);
            paths.add(subPath);
            collect(sub, subPath, paths);
        });
    }

    @Test
    void theRunOptionsAreTheDocumentedOnes() {
        assertThat(Main.commandLine().getSubcommands().get("run").getCommandSpec().options().stream()
                .map(OptionSpec::longestName).toList()).containsExactly("--profile", "--manifest", "--root",
                "--results", "--variants", "--where", "--scenarios", "--regimes", "--database-url", "--services",
                "--database-user", "--database-password", "--dry-run", "--budget-minutes", "--missing-runtimes",
                "--no-build", "--no-tables", "--full-tables", "--history", "--no-history", "--seed", "--flamegraphs",
                "--help");
    }

    @Test
    void anUnknownOptionIsAUsageError() {
        Result result = Bench.run("run", "--dry-rnu");
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.out()).isEmpty();
        assertThat(result.err()).startsWith("bench run: Unknown option: '--dry-rnu'")
                .contains("usage: ./bench run [OPTIONS]").contains("--dry-run");
    }

    @Test
    void aMissingValueIsAUsageError() {
        Result result = Bench.run("compare", "--history");
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).startsWith("bench compare: Missing required parameter for option '--history'")
                .contains("usage: ./bench compare [options] --history <dir> <head results dir>");
        assertThat(Bench.run("run", "--profile").err()).contains("Missing required parameter for option '--profile'");
    }

    @Test
    void aFlagWithAValueAndABadValueAreUsageErrors() {
        Result flag = Bench.run("run", "--dry-run=yes");
        assertThat(flag.exit()).isEqualTo(2);
        assertThat(flag.err()).contains("--dry-run").contains("yes");
        Result rounds = Bench.run("ab", "--base", "HEAD", "--min-rounds", "0");
        assertThat(rounds.exit()).isEqualTo(2);
        assertThat(rounds.err()).contains("--min-rounds").contains("must be a positive integer, was '0'")
                .contains("usage: ./bench ab");
        Result port = Bench.run("site", "--port=70000");
        assertThat(port.exit()).isEqualTo(2);
        assertThat(port.err()).contains("--port").contains("must be a number from 0 to 65535, was '70000'");
    }

    @Test
    void anUnknownCommandIsAUsageErrorWithTheOverview() {
        Result result = Bench.run("bnechmark");
        assertThat(result.exit()).isEqualTo(2);
        assertThat(result.err()).startsWith("bench: unknown command 'bnechmark'")
                .contains("usage: ./bench [command] [options]").contains("  drill ");
    }

    @Test
    void whatOnlyTheCommandCanCheckIsAUsageErrorToo() {
        Result profile = Bench.run("run", "--dry-run", "--profile", "no-such-profile");
        assertThat(profile.exit()).isEqualTo(2);
        assertThat(profile.err()).startsWith("bench run: unknown profile 'no-such-profile'")
                .contains("usage: ./bench run [OPTIONS]");
        Result history = Bench.run("history");
        assertThat(history.exit()).isEqualTo(2);
        assertThat(history.err()).startsWith("bench history: the only subcommand is: history append");
        Result append = Bench.run("history", "append", "somewhere");
        assertThat(append.exit()).isEqualTo(2);
        assertThat(append.err()).startsWith("bench history append: Missing required option: '--history=<dir>'");
    }
}
