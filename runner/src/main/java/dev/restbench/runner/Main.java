package dev.restbench.runner;

import dev.restbench.manifest.ManifestException;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.ab.AbCommand;
import dev.restbench.runner.ab.DrillCommand;
import dev.restbench.runner.build.BuildCommand;
import dev.restbench.runner.build.StartCommand;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.compose.ComposeCommand;
import dev.restbench.runner.db.DbCommand;
import dev.restbench.runner.history.HistoryCommand;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.merge.MergeCommand;
import dev.restbench.runner.report.AnswerCommand;
import dev.restbench.runner.report.CompareCommand;
import dev.restbench.runner.report.SpreadCommand;
import dev.restbench.runner.run.RunCommand;
import dev.restbench.runner.site.SiteCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

import java.io.PrintWriter;
import java.util.List;

/**
 * Entry point of `./bench`. {@link #commandLine()} is the one place where subcommands are registered: add a command
 * with one line. Each subcommand is a picocli {@code @Command} whose {@code Callable} returns the exit code.
 */
@Command(name = "./bench",
        customSynopsis = "./bench [command] [options]      (no command = run --profile quick)",
        description = {"Benchmarks the REST variants listed in benchmarks.json with Gatling on PostgreSQL and writes",
                "results/<run-id>/ (run.json, bench-throughput.json, bench-costs.json, summary.md, Gatling reports)."},
        footer = {"%n`./bench <command> --help` (or `./bench help <command>`) lists the command's options.",
                "The ./bench script first builds the runner (./mvnw -B -q package -DskipTests) when its jar is missing"
                        + " or older than its sources; `./bench run` builds the variants it runs when stale"
                        + " (./bench build).",
                "BENCH_SERVICE_USER=<user>: every variant build, service, AOT training and jcmd runs as that user (a"
                        + " system user without a login: ./bench kills its processes and empties its home; through"
                        + " setpriv as root, else sudo -n -u <user>), which cannot write the results"
                        + " (docs/runner-host.md)."},
        exitCodeList = {"0:success", "1:a failure: a cell or a build failed, an error",
                "2:a usage error (unknown command or option, a missing or bad value), an invalid manifest, a runtime"
                        + " this machine lacks, a BENCH_SERVICE_USER that cannot be used"})
public final class Main {

    /** Exit code of a usage error: unknown command or option, missing or bad value. */
    private static final int EXIT_USAGE = 2;
    /** Exit code of a failure: cells failed, a build failed, an exception. */
    private static final int EXIT_FAILURE = 1;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help")
    private boolean help;

    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new Main())
                .addSubcommand(new RunCommand())
                .addSubcommand(new BuildCommand())
                .addSubcommand(new ComposeCommand())
                .addSubcommand(new StartCommand())
                .addSubcommand(new HistoryCommand())
                .addSubcommand(new CompareCommand())
                .addSubcommand(new SpreadCommand())
                .addSubcommand(new AnswerCommand())
                .addSubcommand(new AbCommand())
                .addSubcommand(new DrillCommand())
                .addSubcommand(new SiteCommand())
                .addSubcommand(new DbCommand())
                .addSubcommand(new MergeCommand())
                .addSubcommand(new HelpCommand());
        cli.getSubcommands().get("help").getCommandSpec().usageMessage()
                .header("show this overview, or a command's options: ./bench help <command>");
        style(cli);
        // Set after the subcommands are added: these settings reach the whole tree only then.
        cli.setOverwrittenOptionsAllowed(true); // an option given twice: the last value counts
        cli.setExpandAtFiles(false); // an argument starting with @ is a path, never a file of more arguments
        cli.setUsageHelpWidth(120);
        cli.setUsageHelpLongOptionsMaxWidth(24);
        cli.setParameterExceptionHandler((e, args) -> usageError(e.getCommandLine(), message(e)));
        cli.setExecutionExceptionHandler((e, command, parseResult) -> failure(e, command));
        return cli;
    }

    /** The same headings everywhere, the options in the order they are declared, and -h/--help on every command. */
    private static void style(CommandLine command) {
        UsageMessageSpec usage = command.getCommandSpec().usageMessage();
        usage.synopsisHeading("usage: ").abbreviateSynopsis(true).descriptionHeading("%n")
                .parameterListHeading("%narguments:%n").optionListHeading("%noptions:%n")
                .commandListHeading("%ncommands:%n").sortOptions(false);
        if (!usage.exitCodeList().isEmpty()) {
            usage.exitCodeListHeading("%nexit codes:%n");
        }
        if (command.getCommandSpec().findOption("--help") == null) {
            command.getCommandSpec().addOption(OptionSpec.builder("-h", "--help").usageHelp(true)
                    .description("show this help").build());
        }
        command.getSubcommands().values().forEach(Main::style);
    }

    public static void main(String[] args) {
        System.exit(execute(List.of(args)));
    }

    /** Runs `./bench args…` and returns the exit code (used by tests, which must not call System.exit). */
    public static int execute(List<String> args) {
        // `./bench` alone = `./bench run` (with the manifest's defaultProfile, quick)
        return commandLine().execute(args.isEmpty() ? new String[] {"run"} : args.toArray(String[]::new));
    }

    private static String message(ParameterException e) {
        if (e instanceof UnmatchedArgumentException unmatched && e.getCommandLine().getParent() == null
                && !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-")) {
            return "unknown command '" + unmatched.getUnmatched().get(0) + "'";
        }
        return e.getMessage();
    }

    /** The message and the command's usage on stderr, exit 2. */
    private static int usageError(CommandLine command, String message) {
        PrintWriter err = command.getErr();
        err.println(name(command) + ": " + message);
        err.println();
        command.usage(err);
        err.flush();
        return EXIT_USAGE;
    }

    private static int failure(Exception e, CommandLine command) {
        if (e instanceof UsageException) {
            return usageError(command, e.getMessage());
        }
        PrintWriter err = command.getErr();
        int exit = EXIT_FAILURE;
        if (e instanceof ManifestException) {
            err.println("bench: " + e.getMessage());
            exit = EXIT_USAGE;
        } else if (e instanceof Runtimes.NotFound || e instanceof ServiceUser.Unusable) {
            err.println(name(command) + ": " + e.getMessage());
            exit = EXIT_USAGE;
        } else if (e instanceof VariantBuilder.BuildFailure) {
            err.println(name(command) + ": " + e.getMessage());
        } else {
            err.println(name(command) + ": failed: " + e);
            e.printStackTrace(err);
        }
        err.flush();
        return exit;
    }

    /** "bench run", "bench history append": the command as the messages name it. */
    private static String name(CommandLine command) {
        return command.getCommandSpec().qualifiedName(" ").replaceFirst("^\\./", "");
    }
}
