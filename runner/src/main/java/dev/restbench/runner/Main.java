package dev.restbench.runner;

import dev.restbench.manifest.ManifestException;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.build.VariantBuilder;
import dev.restbench.runner.run.RunCommand;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Entry point of `./bench`. The command table below is the one place where subcommands are registered:
 * add a command with one line.
 */
public final class Main {

    static Map<String, Command> commands() {
        Map<String, Command> commands = new LinkedHashMap<>();
        commands.put("run", new RunCommand());
        commands.put("build", new dev.restbench.runner.build.BuildCommand());
        commands.put("compose", new dev.restbench.runner.compose.ComposeCommand());
        commands.put("start", new dev.restbench.runner.build.StartCommand());
        commands.put("history", new dev.restbench.runner.history.HistoryCommand());
        commands.put("compare", new dev.restbench.runner.report.CompareCommand());
        commands.put("spread", new dev.restbench.runner.report.SpreadCommand());
        commands.put("ab", new dev.restbench.runner.ab.AbCommand());
        commands.put("drill", new dev.restbench.runner.ab.DrillCommand());
        commands.put("site", new dev.restbench.runner.site.SiteCommand());
        commands.put("db", new dev.restbench.runner.db.DbCommand());
        commands.put("merge", new dev.restbench.runner.merge.MergeCommand());
        // history, compare, ab, drill, site: registered here by the analysis code (one line each).
        return commands;
    }

    public static void main(String[] args) {
        System.exit(execute(List.of(args)));
    }

    /** Runs `./bench args…` and returns the exit code (used by tests, which must not call System.exit). */
    public static int execute(List<String> args) {
        Map<String, Command> commands = commands();
        if (args.isEmpty()) {
            args = List.of("run"); // `./bench` alone = `./bench run --profile <defaultProfile>` (quick)
        }
        String name = args.get(0);
        if (name.equals("--help") || name.equals("-h") || name.equals("help")) {
            System.out.println(overview(commands));
            return 0;
        }
        Command command = commands.get(name);
        if (command == null) {
            System.err.println("bench: unknown command '" + name + "'\n");
            System.err.println(overview(commands));
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        if (rest.contains("--help") || rest.contains("-h")) {
            System.out.println(command.help());
            return 0;
        }
        try {
            return command.run(rest);
        } catch (UsageException e) {
            System.err.println("bench " + name + ": " + e.getMessage() + "\n");
            System.err.println(command.help());
            return 2;
        } catch (ManifestException e) {
            System.err.println("bench: " + e.getMessage());
            return 2;
        } catch (Runtimes.NotFound e) {
            System.err.println("bench " + name + ": " + e.getMessage());
            return 2;
        } catch (VariantBuilder.BuildFailure e) {
            System.err.println("bench " + name + ": " + e.getMessage());
            return 1;
        } catch (Exception e) {
            System.err.println("bench " + name + ": failed: " + e);
            e.printStackTrace(System.err);
            return 1;
        }
    }

    static String overview(Map<String, Command> commands) {
        StringBuilder text = new StringBuilder("""
                usage: ./bench [command] [options]      (no command = run --profile quick)

                Benchmarks the REST variants listed in benchmarks.json with Gatling on PostgreSQL and writes
                results/<run-id>/ (run.json, bench-throughput.json, bench-costs.json, summary.md, Gatling reports).

                commands:
                """);
        commands.forEach((name, command) -> text.append(String.format("  %-10s %s%n", name, command.summary())));
        text.append("""

                `./bench <command> --help` lists the command's options.
                The ./bench script first builds the runner (./mvnw -B -q package -DskipTests) when its jar is missing
                or older than its sources; `./bench run` builds the variants it runs when stale (./bench build).""");
        return text.toString();
    }
}
