package dev.restbench.runner.report;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Command;
import dev.restbench.runner.build.BuildCommand;
import dev.restbench.runner.manifest.Manifests;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.RunComparison;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.analysis.VerdictRule;
import dev.restbench.runner.history.History;
import dev.restbench.runner.io.AtomicFiles;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./bench ab}: the pull-request verdict. Builds two revisions in separate git worktrees and runs their
 * variants interleaved (base, head, then head, base, ...) in one run on this machine, then compares head with
 * base. The history comparison, when a history is given, is shown beside it as context only.
 */
public final class AbCommand implements Command {


    @Override
    public String summary() {
        return "A/B of two git revisions built in worktrees and run interleaved in one job (the PR verdict)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench ab --base <git-ref> [--head <git-ref>] [options]

                Builds both revisions (git worktree add under --workdir; each with its own benchmarks.json's build
                steps, as ./bench build does), then runs them in ONE interleaved run with the checkout's own harness
                (benchmarks.json, Gatling simulations): each variant twice, as <variant>--base and <variant>--head,
                alternating per repetition so machine drift cancels. Prints the PR-comment markdown of head vs base.

                options:
                  --base <ref>            base revision, e.g. origin/main (with --merge-base: its merge base with head)
                  --head <ref>            head revision (default HEAD)
                  --merge-base            use the merge base of --base and --head as the base
                  --profile <name>        manifest profile (default quick)
                  --repetitions <n>       repetitions per side (default 5: the exact test needs n >= 4 per side)
                  --variants a,b          variants to compare (default all)
                  --scenarios a,b         scenarios (default the profile's)
                  --workdir <dir>         worktrees, derived manifest and results (default target/ab)
                  --keep-worktrees        do not remove the worktrees afterwards
                  --skip-build            use the jars already in the worktrees
                  --history <dir>         show the comparison with this history beside the verdict (context)
                  --output <file>         also write the markdown to this file (e.g. $GITHUB_STEP_SUMMARY)
                  --fail-on-regression    exit 3 when any series regressed
                  --reports-url <url>     link to the Gatling reports artifact (default $RESTBENCH_REPORTS_URL)
                  --site-url <url>        link to the site (default $RESTBENCH_SITE_URL)

                exit codes: 0 compared, 1 failure (build, run), 2 bad input or usage,
                            3 regression found (only with --fail-on-regression)""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options options = Options.parse(args, Set.of("base", "head", "profile", "repetitions", "variants",
                        "scenarios", "workdir", "history", "output", "reports-url", "site-url", "root"),
                Set.of("merge-base", "keep-worktrees", "skip-build", "fail-on-regression"));
        if (!options.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + options.positional().get(0) + "'");
        }
        String baseRef = options.value("base").orElseThrow(() -> new UsageException("--base <git-ref> is required"));
        Path root = Path.of(options.value("root").orElse(System.getProperty("restbench.root", ".")))
                .toAbsolutePath().normalize();
        String profile = options.value("profile").orElse("quick");
        int repetitions = positiveInt(options.value("repetitions").orElse("5"), "--repetitions");
        Path workdir = options.value("workdir").map(Path::of).orElse(root.resolve("target/ab")).toAbsolutePath();
        Path manifest = root.resolve("benchmarks.json");

        String head;
        String base;
        List<String> variants;
        try {
            head = Git.resolve(root, options.value("head").orElse("HEAD"));
            base = Git.resolve(root, baseRef);
            if (options.flag("merge-base")) {
                base = Git.mergeBase(root, base, head);
            }
            // Default: the profile's variants (quick: the three reference ones), as ./bench run would choose.
            variants = BuildCommand.select(Manifests.load(manifest), options.value("variants"), List.of(),
                    Optional.of(profile)).stream().map(Manifest.Variant::name).toList();
        } catch (IllegalArgumentException e) {
            System.err.println("bench ab: " + e.getMessage());
            return 2;
        }
        System.out.println("A/B: base " + base.substring(0, 12) + " vs head " + head.substring(0, 12) + ", profile "
                + profile + ", " + repetitions + " repetitions per side, variants " + String.join(",", variants));

        Path baseTree = workdir.resolve("base-" + base.substring(0, 12));
        Path headTree = workdir.resolve("head-" + head.substring(0, 12));
        try {
            Git.worktree(root, baseTree, base);
            Git.worktree(root, headTree, head);
            // Each revision is built as its own benchmarks.json says (the layout may differ between them).
            Runtimes runtimes = Runtimes.ofThisMachine();
            boolean build = !options.flag("skip-build");
            Map<String, Path> baseArtifacts = RevisionBuild.artifacts(baseTree, variants, runtimes, build);
            Map<String, Path> headArtifacts = RevisionBuild.artifacts(headTree, variants, runtimes, build);
            for (Path artifact : concat(baseArtifacts.values(), headArtifacts.values())) {
                if (!Files.exists(artifact)) {
                    System.err.println("bench ab: " + artifact + " is missing"
                            + (options.flag("skip-build") ? " (drop --skip-build to build it)" : " after the build"));
                    return 1;
                }
            }
            List<InterleavedRun.Copy> copies = new ArrayList<>();
            for (String variant : variants) {
                copies.add(new InterleavedRun.Copy(variant, "base", baseArtifacts.get(variant), Map.of()));
                copies.add(new InterleavedRun.Copy(variant, "head", headArtifacts.get(variant), Map.of()));
            }
            Path derived = InterleavedRun.deriveManifest(manifest, copies, profile,
                    new InterleavedRun.ProfileOverrides(repetitions, null, null, null, null), workdir.resolve("ab-benchmarks.json"));
            List<String> extra = new ArrayList<>();
            options.value("scenarios").ifPresent(s -> extra.addAll(List.of("--scenarios", s)));
            Path runDir = InterleavedRun.run(root, derived, profile, workdir.resolve("results"), extra);

            RunRecord run = RunRecord.read(runDir);
            RunRecord baseRun = InterleavedRun.select(run, "base", base);
            RunRecord headRun = InterleavedRun.select(run, "head", head);
            RunComparison comparison = RunComparison.compare(baseRun, headRun, Map.of(), new VerdictRule());
            List<String> context = new ArrayList<>();
            context.add("A/B: both revisions built and run interleaved in one job on the same machine (`"
                    + run.runId() + "`, results in `" + (runDir.startsWith(root) ? root.relativize(runDir) : runDir) + "`).");
            if (options.value("history").isPresent()) {
                context.add(historyContext(new History(Path.of(options.value("history").get())), headRun));
            }
            String markdown = PrComment.render(comparison, PrComment.Links.fromEnvironment(
                    options.value("reports-url").orElse(null), options.value("site-url").orElse(null)), context);
            System.out.print(markdown);
            if (options.value("output").isPresent()) {
                AtomicFiles.writeString(Path.of(options.value("output").get()), markdown);
            }
            return options.flag("fail-on-regression") && comparison.hasRegression()
                    ? CompareCommand.EXIT_REGRESSION : 0;
        } finally {
            if (!options.flag("keep-worktrees")) {
                Git.remove(root, baseTree);
                Git.remove(root, headTree);
            }
        }
    }

    /** One line: head of this A/B against the newest comparable run of the history, for context only. */
    static String historyContext(History history, RunRecord head) throws java.io.IOException {
        Optional<RunRecord> previous = history.latestComparable(head);
        if (previous.isEmpty()) {
            return "History context: no run in the history was measured with this environment and profile, so "
                    + "none is compared (the A/B verdict above does not need one).";
        }
        RunComparison comparison = RunComparison.compare(previous.get(), head,
                dev.restbench.runner.analysis.HistoricalNoise.forHead(history.loadRuns(), head), new VerdictRule());
        return "History context (not the verdict): against `" + previous.get().runId() + "` from the history: "
                + PrComment.headline(comparison).replaceFirst("^\\*\\*[^*]*\\*\\* — ", "");
    }

    private static List<Path> concat(java.util.Collection<Path> a, java.util.Collection<Path> b) {
        List<Path> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    static int positiveInt(String text, String option) {
        try {
            int value = Integer.parseInt(text);
            if (value < 1) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a positive integer, was '" + text + "'");
        }
    }
}
