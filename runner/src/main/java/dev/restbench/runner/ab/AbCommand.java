package dev.restbench.runner.ab;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Command;
import dev.restbench.runner.build.BuildCommand;
import dev.restbench.runner.manifest.Manifests;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.HistoryJudge;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.history.History;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.report.CompareCommand;
import dev.restbench.runner.report.FlameGraphComparison;
import dev.restbench.runner.report.PrComment;
import dev.restbench.runner.run.BenchmarkRun;
import dev.restbench.runner.run.RunOptions;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code ./bench ab}: the pull-request verdict. Builds two revisions in separate git worktrees and runs their
 * variants in ONE run of the checkout's harness, one base start and one head start of each variant per round in
 * random order, adding rounds until every primary series is decided or the time budget is spent
 * ({@link SequentialRule}); then judges head against base with paired per-round log ratios ({@link PairedJudge}).
 */
public final class AbCommand implements Command {

    static final double ALPHA = 0.05;
    static final double MIN_EFFECT_PCT = 5.0;

    @Override
    public String summary() {
        return "A/B of two git revisions: paired rounds on this machine, sequential within a time budget (the PR verdict)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench ab --base <git-ref> [--head <git-ref>] [options]
                       ./bench ab --from <dir> [--base <sha>] [--head <sha>] [--output <file>] [--reports-url <url>]

                Builds both revisions (git worktree add under --workdir; each as its own benchmarks.json says, with
                ./bench build's builder), then runs them in ONE run with the checkout's own harness (benchmarks.json,
                Gatling simulations): each variant twice, as <variant>--base and <variant>--head, one start of each per
                round in random order. After --min-rounds rounds it stops as soon as every primary series is decided,
                or when the next round would not fit --budget-minutes. Each series is judged on the rounds' paired
                log ratios (docs/verdicts.md). Prints the PR-comment markdown of head vs base.

                With --from, measures nothing: judges the A/B run already in <dir> (its run.json and the ab.json the
                measuring ./bench ab wrote beside it: the looks it planned and its smallest effect) with this
                checkout's verdict code, exactly as the measuring run did. The PR comment job renders with it.

                options:
                  --base <ref>            base revision, e.g. origin/main (with --merge-base: its merge base with head)
                  --head <ref>            head revision (default HEAD)
                  --merge-base            use the merge base of --base and --head as the base
                  --profile <name>        manifest profile: scenarios, regimes, warmup, windows (default quick)
                  --budget-minutes <m>    time budget for the measurement (default 60)
                  --min-rounds <n>        rounds before the first look (default 3)
                  --max-rounds <n>        never more rounds than this (default 20)
                  --min-effect <pct>      the smallest change that matters (default 5)
                  --variants a,b          variants to compare (default all)
                  --scenarios a,b         scenarios (default the profile's)
                  --seed <n>              seed of the order within rounds (default random, recorded)
                  --workdir <dir>         worktrees, derived manifest and results (default target/ab)
                  --keep-worktrees        do not remove the worktrees afterwards
                  --skip-build            use the jars already in the worktrees
                  --history <dir>         show the comparison with this history beside the verdict (context)
                  --output <file>         also write the markdown to this file (e.g. $GITHUB_STEP_SUMMARY)
                  --fail-on-regression    exit 3 when a primary series regressed or a head cell failed
                  --reports-url <url>     link to the Gatling reports artifact (default $RESTBENCH_REPORTS_URL)
                  --site-url <url>        link to the site (default $RESTBENCH_SITE_URL)
                  --flamegraphs           in the first round, a profiling window after each cell's published
                                          windows on both sides (./bench run --flamegraphs), and per cell a page
                                          with base and head side by side and a differential table:
                                          flamegraphs/ab/<variant>-<scenario>-<regime>.html in the run directory,
                                          linked from the comment for every series that changed
                  --from <dir>            judge the A/B run in <dir> instead of measuring (see above)

                exit codes: 0 compared, 1 failure (build, run), 2 bad input or usage,
                            3 regression found (only with --fail-on-regression)""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options options = Options.parse(args, Set.of("base", "head", "profile", "variants", "scenarios", "workdir",
                        "history", "output", "reports-url", "site-url", "root", "budget-minutes", "min-rounds",
                        "max-rounds", "min-effect", "seed", "from"),
                Set.of("merge-base", "keep-worktrees", "skip-build", "fail-on-regression", "flamegraphs"));
        if (!options.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + options.positional().get(0) + "'");
        }
        if (options.value("from").isPresent()) {
            return judgeRecorded(Path.of(options.value("from").get()), options);
        }
        String baseRef = options.value("base").orElseThrow(() -> new UsageException("--base <git-ref> is required"));
        Path root = Path.of(options.value("root").orElse(System.getProperty("restbench.root", ".")))
                .toAbsolutePath().normalize();
        String profile = options.value("profile").orElse("quick");
        double budgetMinutes = positive(options.value("budget-minutes").orElse("60"), "--budget-minutes");
        int minRounds = positiveInt(options.value("min-rounds").orElse("3"), "--min-rounds");
        int maxRounds = positiveInt(options.value("max-rounds").orElse("20"), "--max-rounds");
        double minEffect = positive(options.value("min-effect").orElse(Double.toString(MIN_EFFECT_PCT)), "--min-effect");
        if (maxRounds < 2 || maxRounds > 50) {
            throw new UsageException("--max-rounds must be between 2 and 50");
        }
        Long seed = options.value("seed").map(s -> (long) positiveInt(s, "--seed")).orElse(null);
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
        System.out.printf(Locale.ROOT, "A/B: base %s vs head %s, profile %s, variants %s, budget %.0f min%n",
                base.substring(0, 12), head.substring(0, 12), profile, String.join(",", variants), budgetMinutes);

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
            List<Copies.Copy> copies = new ArrayList<>();
            for (String variant : variants) {
                copies.add(new Copies.Copy(variant, "base", baseArtifacts.get(variant), Map.of()));
                copies.add(new Copies.Copy(variant, "head", headArtifacts.get(variant), Map.of()));
            }
            List<String> scenarios = options.value("scenarios").map(AbCommand::list).orElse(null);
            Path derived = Copies.deriveManifest(manifest, copies, profile, maxRounds, scenarios, null, null,
                    workdir.resolve("ab-benchmarks.json"));
            SequentialRule rule = new SequentialRule(Math.min(minRounds, maxRounds), maxRounds, budgetMinutes * 60,
                    ALPHA, minEffect, System.out);
            Path runDir = BenchmarkRun.execute(RunOptions.of(root, derived, profile, workdir.resolve("results"),
                    List.of(), List.of(), seed, options.flag("flamegraphs") ? 1 : 0), rule, System.out);

            RunRecord run = RunRecord.read(runDir);
            if (options.flag("flamegraphs")) {
                System.out.println("flame graphs: " + FlameGraphComparison.write(runDir, run)
                        + " base ↔ head pages in " + runDir.resolve("flamegraphs/ab"));
            }
            Design design = new Design(base, head, ALPHA, rule.looks(), minEffect, rule.stopReason());
            AtomicFiles.writeString(runDir.resolve(Design.FILE), Json.MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(design.toJson()) + "\n");
            Judgement judgement = design.judge(run);
            List<String> context = new ArrayList<>();
            context.add("Stopped: " + (rule.stopReason() == null ? "all planned rounds ran" : rule.stopReason())
                    + "; results in `" + (runDir.startsWith(root) ? root.relativize(runDir) : runDir) + "`.");
            if (options.value("history").isPresent()) {
                context.add(historyContext(new History(Path.of(options.value("history").get())),
                        InterleavedRun.select(run, "head", head), minEffect));
            }
            return report(judgement, run, runDir.toString(), context, options);
        } finally {
            if (!options.flag("keep-worktrees")) {
                Git.remove(root, baseTree);
                Git.remove(root, headTree);
            }
        }
    }

    /**
     * {@code --from}: the verdict of an A/B run measured before (perhaps on another machine, as the PR comment job
     * does with the benchmark job's artifact), by this checkout's code. The record is data, possibly untrusted: it
     * must parse and hold both sides, and the design's numbers must be in range, or it is rejected (exit 2).
     */
    private static int judgeRecorded(Path dir, Options options) throws Exception {
        RunRecord run;
        Design design;
        try {
            run = RunRecord.read(dir);
            design = Design.read(dir.resolve(Design.FILE), options.value("base").orElse(null),
                    options.value("head").orElse(null));
            for (String side : List.of("base", "head")) {
                if (InterleavedRun.select(run, side, null).raw().path("cells").isEmpty()) {
                    throw new IllegalArgumentException(dir + ": the run has no " + side + " side (<variant>--" + side + ")");
                }
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            System.err.println("bench ab --from: " + e.getMessage());
            return 2;
        }
        Judgement judgement = design.judge(run);
        List<String> context = List.of("Judged from the recorded A/B run"
                + (design.stopReason() == null ? "" : "; the measuring run stopped: " + design.stopReason()) + ".");
        // As bench-ab.sh measures it in CI (--workdir results/ab) and the workflow uploads results/ as the artifact.
        return report(judgement, run, "ab/results/" + run.runId(), context, options);
    }

    /** Prints the PR-comment markdown (and writes it to --output); the exit code --fail-on-regression asks for. */
    /** @param runDir where the run's files are: the local directory, or its folder in the CI results artifact */
    private static int report(Judgement judgement, RunRecord run, String runDir, List<String> context, Options options)
            throws java.io.IOException {
        String markdown = PrComment.render(judgement, PrComment.Links.fromEnvironment(
                options.value("reports-url").orElse(null), options.value("site-url").orElse(null))
                .withFlameGraphs(runDir, FlameGraphComparison.pairs(run)), context);
        System.out.print(markdown);
        if (options.value("output").isPresent()) {
            AtomicFiles.writeString(Path.of(options.value("output").get()), markdown);
        }
        return options.flag("fail-on-regression") && judgement.hasRegression() ? CompareCommand.EXIT_REGRESSION : 0;
    }

    /** One line: head of this A/B against the history, for context only (usually another environment). */
    static String historyContext(History history, RunRecord head, double minEffect) throws java.io.IOException {
        Judgement judgement = HistoryJudge.judge(history.loadRuns(), head, 30, ALPHA, minEffect);
        return "History context (not the verdict): " + PrComment.headline(judgement).replaceFirst("^\\*\\*[^*]*\\*\\* — ", "")
                + " (" + judgement.method().detail() + ")";
    }

    private static List<String> list(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
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

    static double positive(String text, String option) {
        try {
            double value = Double.parseDouble(text);
            if (!(value > 0) || !Double.isFinite(value)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new UsageException(option + " must be a positive number, was '" + text + "'");
        }
    }
}
