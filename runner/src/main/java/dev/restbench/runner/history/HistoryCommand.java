package dev.restbench.runner.history;

import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/** {@code ./bench history append}: adds a finished run to a history directory in the gh-pages layout. */
public final class HistoryCommand implements Command {

    @Override
    public String summary() {
        return "append a finished run to a history directory (gh-pages layout: data.js, index, runs, analysis)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench history append --history <dir> [options] <results/run-id>...

                Appends each run (in the order given) to <dir>/dev/bench/: data.js (github-action-benchmark's
                format, suites "throughput" and "costs"), index.json, runs/YYYY-MM/<runId>.json, latest.json
                (newest run vs the previous comparable run) and analysis.json (change points per series).
                Atomic per file and idempotent: appending a run twice leaves one entry and identical files.

                options:
                  --history <dir>     the history directory (e.g. a gh-pages worktree); created when missing
                  --repo-url <url>    repository URL for data.js and commit links (default: data.js's own, or
                                      $GITHUB_SERVER_URL/$GITHUB_REPOSITORY)
                  --skip-data-js      leave data.js alone (CI never does: this append is its only writer)

                exit codes: 0 appended (or already present), 1 failure, 2 bad input or usage""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        if (args.isEmpty() || !args.get(0).equals("append")) {
            throw new UsageException("the only subcommand is: history append");
        }
        Options options = Options.parse(args.subList(1, args.size()), Set.of("history", "repo-url"),
                Set.of("skip-data-js"));
        String dir = options.value("history").orElseThrow(() -> new UsageException("--history <dir> is required"));
        if (options.positional().isEmpty()) {
            throw new UsageException("give at least one results directory (results/<run-id>)");
        }
        String repoUrl = options.value("repo-url").orElseGet(HistoryCommand::repoUrlFromEnvironment);
        History history = new History(Path.of(dir));
        for (String run : options.positional()) {
            History.AppendResult result;
            try {
                Path runPath = Path.of(run);
                result = history.append(runPath,
                        new History.AppendOptions(repoUrl, options.flag("skip-data-js"), null));
            } catch (IllegalArgumentException e) {
                System.err.println("bench history: " + e.getMessage());
                return 2;
            }
            System.out.println((result.alreadyPresent() ? "already in history: " : "appended: ") + result.runId()
                    + (result.changedFiles().isEmpty() ? " (no file changed)"
                    : " (wrote " + String.join(", ", result.changedFiles()) + ")"));
        }
        return 0;
    }

    private static String repoUrlFromEnvironment() {
        String server = System.getenv("GITHUB_SERVER_URL");
        String repository = System.getenv("GITHUB_REPOSITORY");
        return server != null && repository != null ? server + "/" + repository : null;
    }
}
