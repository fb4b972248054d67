package dev.restbench.runner.history;

import dev.restbench.runner.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ./bench history append}: adds a finished run to a history directory in the gh-pages layout. */
@Command(name = "history",
        header = "append a finished run to a history directory (gh-pages layout: data.js, index, runs, analysis)",
        description = "Its one subcommand: append (./bench history append --help).",
        subcommands = HistoryCommand.Append.class)
public final class HistoryCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        throw new UsageException("the only subcommand is: history append");
    }

    @Command(name = "append",
            header = "append finished runs to a history directory (gh-pages layout)",
            customSynopsis = "./bench history append --history <dir> [options] <results/run-id>...",
            description = "Appends each run (in the order given) to <dir>/dev/bench/: data.js (github-action-benchmark's"
                    + " format, suites \"throughput\" and \"costs\"), index.json, runs/YYYY-MM/<runId>.json, latest.json"
                    + " (newest run vs the previous comparable run) and analysis.json (change points per series)."
                    + " Atomic per file and idempotent: appending a run twice leaves one entry and identical files.",
            exitCodeList = {"0:appended (or already present)", "1:failure", "2:bad input or usage"})
    static final class Append implements Callable<Integer> {

        @Option(names = "--history", paramLabel = "<dir>", required = true,
                description = "the history directory (e.g. a gh-pages worktree); created when missing")
        private Path history;

        @Option(names = "--repo-url", paramLabel = "<url>",
                description = "repository URL for data.js and commit links (default: data.js's own, or"
                        + " $GITHUB_SERVER_URL/$GITHUB_REPOSITORY)")
        private String repoUrl;

        @Option(names = "--skip-data-js", arity = "0",
                description = "leave data.js alone (CI never does: this append is its only writer)")
        private boolean skipDataJs;

        @Parameters(paramLabel = "<results/run-id>", arity = "1..*", description = "the runs to append, in order")
        private List<Path> runs;

        @Override
        public Integer call() throws Exception {
            String url = repoUrl != null ? repoUrl : repoUrlFromEnvironment();
            History target = new History(history);
            for (Path run : runs) {
                History.AppendResult result;
                try {
                    result = target.append(run, new History.AppendOptions(url, skipDataJs, null));
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
    }

    private static String repoUrlFromEnvironment() {
        String server = System.getenv("GITHUB_SERVER_URL");
        String repository = System.getenv("GITHUB_REPOSITORY");
        return server != null && repository != null ? server + "/" + repository : null;
    }
}
