package dev.restbench.runner.report;

import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.io.AtomicFiles;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;

/** The options of the commands that print a PR comment (compare, ab): its links, a copy, the exit code. */
public final class CommentOptions {

    @Option(names = "--output", paramLabel = "<file>",
            description = "also write the markdown to this file (e.g. $GITHUB_STEP_SUMMARY)")
    private Path output;

    @Option(names = "--fail-on-regression", arity = "0",
            description = "exit 3 when a primary series regressed or a (head) cell failed")
    private boolean failOnRegression;

    @Option(names = "--reports-url", paramLabel = "<url>",
            description = "link to the Gatling reports artifact (default $RESTBENCH_REPORTS_URL, or the GitHub"
                    + " Actions run page)")
    private String reportsUrl;

    @Option(names = "--site-url", paramLabel = "<url>", description = "link to the site (default $RESTBENCH_SITE_URL)")
    private String siteUrl;

    /** The comment's links: the options, else the environment's. */
    public PrComment.Links links() {
        return PrComment.Links.fromEnvironment(reportsUrl, siteUrl);
    }

    /** Writes a comment to --output, when given (a comment without a judgement: nothing was measured). */
    public void write(String markdown) throws IOException {
        if (output != null) {
            AtomicFiles.writeString(output, markdown);
        }
    }

    /** Prints the comment (and writes it to --output); returns the exit code --fail-on-regression asks for. */
    public int print(String markdown, Judgement judgement) throws IOException {
        System.out.print(markdown);
        if (output != null) {
            AtomicFiles.writeString(output, markdown);
        }
        return failOnRegression && judgement.hasRegression() ? CompareCommand.EXIT_REGRESSION : 0;
    }
}
