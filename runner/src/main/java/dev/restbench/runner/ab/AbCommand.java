package dev.restbench.runner.ab;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.Converters;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.build.BuildCommand;
import dev.restbench.runner.manifest.Manifests;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.analysis.HistoryJudge;
import dev.restbench.runner.analysis.InterleavedRun;
import dev.restbench.runner.analysis.Judgement;
import dev.restbench.runner.analysis.MetricRules;
import dev.restbench.runner.analysis.PairedJudge;
import dev.restbench.runner.analysis.RunRecord;
import dev.restbench.runner.history.History;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.io.Json;
import dev.restbench.runner.report.CommentOptions;
import dev.restbench.runner.report.FlameGraphComparison;
import dev.restbench.runner.report.PrComment;
import dev.restbench.runner.run.BenchmarkRun;
import dev.restbench.runner.run.HostCheck;
import dev.restbench.runner.run.RunOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code ./bench ab}: the pull-request verdict. Builds two revisions in separate git worktrees and runs their
 * variants in ONE run of the checkout's harness, one base start and one head start of each variant per round in
 * random order, as many rounds as the time budget allows ({@link SequentialRule}); then judges head against base
 * once, with paired per-round log ratios and each metric's rules from the catalogue ({@link PairedJudge}).
 */
@Command(name = "ab",
        header = "A/B of two git revisions: paired rounds on this machine within a time budget, judged once (the PR"
                + " verdict)",
        customSynopsis = {"./bench ab --base <git-ref> [--head <git-ref>] [options]",
                "       ./bench ab --from <dir> [--base <sha>] [--head <sha>] [--output <file>] [--reports-url <url>]"},
        description = {"Builds both revisions (git worktree add under --workdir; each as its own benchmarks.json says,"
                + " with ./bench build's builder), then runs them in ONE run with the checkout's own harness"
                + " (benchmarks.json, Gatling simulations): each variant twice, as <variant>--base and <variant>--head,"
                + " one start of each per round in random order, as many rounds as --budget-minutes allows (the"
                + " first round's length decides), at most --max-rounds. After the last round each series is judged"
                + " once on the rounds' paired log ratios, with its metric's minimum effect and test from"
                + " benchmarks.json (docs/method.md). Prints the PR-comment markdown of head vs base.",
                "",
                "With --from, measures nothing: judges the A/B run already in <dir> (its run.json and the ab.json the"
                        + " measuring ./bench ab wrote beside it: the level and the metrics' rules it judged with) with"
                        + " this checkout's verdict code, exactly as the measuring run did. The PR comment job renders"
                        + " with it."},
        exitCodeList = {"0:compared", "1:failure (build, run)", "2:bad input or usage",
                "3:regression found (only with --fail-on-regression)"})
public final class AbCommand implements Callable<Integer> {

    static final double ALPHA = 0.05;
    /** No share of α for early "all decided" looks: simulated, it never stopped a run here ({@link SequentialRule}). */
    static final double EARLY_ALPHA = 0;
    /** The history context's minimum effect (the history verdict has one for all metrics). */
    static final double MIN_EFFECT_PCT = 5.0;

    @Option(names = "--base", paramLabel = "<ref>",
            description = "base revision, e.g. origin/main (with --merge-base: its merge base with head)")
    private String baseRef;

    @Option(names = "--head", paramLabel = "<ref>", description = "head revision (default HEAD)")
    private String headRef;

    @Option(names = "--merge-base", arity = "0", description = "use the merge base of --base and --head as the base")
    private boolean mergeBase;

    @Option(names = "--profile", paramLabel = "<name>",
            description = "manifest profile: scenarios, regimes, warmup, windows (default quick)")
    private String profile = "quick";

    @Option(names = "--budget-minutes", paramLabel = "<m>", converter = Converters.PositiveNumber.class,
            description = "time budget for the measurement (default 60)")
    private double budgetMinutes = 60;

    @Option(names = "--min-rounds", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "rounds before the first early look (default 3); no effect while no share of α is set aside"
                    + " for early looks, as now: the verdict is judged once, after the last round")
    private int minRounds = 3;

    @Option(names = "--max-rounds", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "never more rounds than this (default 20)")
    private int maxRounds = 20;

    @Option(names = "--variants", paramLabel = "a,b",
            description = "the variants that may be compared (default the profile's); of them, only those whose build"
                    + " or start differs between base and head are measured, unless --measure all")
    private String variantNames;

    @Option(names = "--measure", paramLabel = "changed|all",
            description = "changed (default): only the variants whose build inputs or manifest entry differ between"
                    + " base and head, every one when the harness differs (runner, simulations, the method in"
                    + " benchmarks.json), none when nothing of them does; all: every selected variant")
    private String measure = "changed";

    @Option(names = "--scenarios", paramLabel = "a,b", description = "scenarios (default the profile's)")
    private String scenarioNames;

    @Option(names = "--seed", paramLabel = "<n>", converter = Converters.PositiveInt.class,
            description = "seed of the order within rounds (default random, recorded)")
    private Integer seed;

    @Option(names = "--workdir", paramLabel = "<dir>",
            description = "worktrees, derived manifest and results (default target/ab)")
    private Path workdirOption;

    @Option(names = "--keep-worktrees", arity = "0", description = "do not remove the worktrees afterwards")
    private boolean keepWorktrees;

    @Option(names = "--skip-build", arity = "0", description = "use the jars already in the worktrees")
    private boolean skipBuild;

    @Option(names = "--history", paramLabel = "<dir>",
            description = "show the comparison with this history beside the verdict (context)")
    private Path history;

    @Mixin
    private CommentOptions comment;

    @Option(names = "--flamegraphs", arity = "0",
            description = "in the first round, a profiling window after each cell's published windows on both sides,"
                    + " as ./bench run --flamegraphs gives, and per cell a page with base and head side by side and a"
                    + " differential table: flamegraphs/ab/<variant>-<scenario>-<regime>.html in the run directory,"
                    + " linked from the comment for every series that changed")
    private boolean flameGraphs;

    @Option(names = "--from", paramLabel = "<dir>", description = "judge the A/B run in <dir> instead of measuring (see above)")
    private Path from;

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        if (from != null) {
            return judgeRecorded(from);
        }
        if (baseRef == null) {
            throw new UsageException("--base <git-ref> is required");
        }
        if (maxRounds < 2 || maxRounds > 50) {
            throw new UsageException("--max-rounds must be between 2 and 50");
        }
        // A malformed stated host speed stops the A/B before it builds two revisions, not after.
        HostCheck.referenceFromEnvironment();
        Path root = rootOption.path();
        Path workdir = (workdirOption != null ? workdirOption : root.resolve("target/ab")).toAbsolutePath();
        Path manifest = root.resolve("benchmarks.json");

        if (!measure.equals("changed") && !measure.equals("all")) {
            throw new UsageException("--measure must be changed or all, was '" + measure + "'");
        }
        String head;
        String base;
        List<String> variants;
        MetricRules rules;
        ChangedVariants.Scope scope;
        try {
            head = Git.resolve(root, headRef != null ? headRef : "HEAD");
            base = Git.resolve(root, baseRef);
            if (mergeBase) {
                base = Git.mergeBase(root, base, head);
            }
            // Default: the profile's variants (quick: the three reference ones), as ./bench run would choose.
            Manifest checkout = Manifests.load(manifest);
            variants = BuildCommand.select(checkout, Optional.ofNullable(variantNames), List.of(),
                    Optional.of(profile)).stream().map(Manifest.Variant::name).toList();
            rules = MetricRules.of(checkout);
            scope = measure.equals("all") ? null : ChangedVariants.of(root, base, head, variants);
        } catch (IllegalArgumentException e) {
            System.err.println("bench ab: " + e.getMessage());
            return 2;
        }
        if (scope != null) {
            System.out.println("A/B scope: " + scope.describe());
            scope.why().forEach((variant, why) -> System.out.println("  measure " + variant + ": " + why));
            scope.skipped().forEach((variant, why) -> System.out.println("  skip    " + variant + ": " + why));
            if (scope.measure().isEmpty()) {
                return nothingToMeasure(workdir, base, head, scope);
            }
            variants = scope.measure();
        }
        System.out.printf(Locale.ROOT, "A/B: base %s vs head %s, profile %s, variants %s, budget %.0f min%n",
                base.substring(0, 12), head.substring(0, 12), profile, String.join(",", variants), budgetMinutes);

        Files.deleteIfExists(workdir.resolve(SCOPE_FILE)); // an earlier A/B's "nothing to measure"
        Path baseTree = workdir.resolve("base-" + base.substring(0, 12));
        Path headTree = workdir.resolve("head-" + head.substring(0, 12));
        try {
            Git.worktree(root, baseTree, base);
            Git.worktree(root, headTree, head);
            // Each revision is built as its own benchmarks.json says (the layout may differ between them).
            Runtimes runtimes = Runtimes.ofThisMachine();
            boolean build = !skipBuild;
            Map<String, Path> baseArtifacts = RevisionBuild.artifacts(baseTree, variants, runtimes, build);
            Map<String, Path> headArtifacts = RevisionBuild.artifacts(headTree, variants, runtimes, build);
            for (Path artifact : concat(baseArtifacts.values(), headArtifacts.values())) {
                if (!Files.exists(artifact)) {
                    System.err.println("bench ab: " + artifact + " is missing"
                            + (skipBuild ? " (drop --skip-build to build it)" : " after the build"));
                    return 1;
                }
            }
            List<Copies.Copy> copies = new ArrayList<>();
            for (String variant : variants) {
                copies.add(new Copies.Copy(variant, "base", baseArtifacts.get(variant), Map.of()));
                copies.add(new Copies.Copy(variant, "head", headArtifacts.get(variant), Map.of()));
            }
            List<String> scenarios = scenarioNames == null ? null : list(scenarioNames);
            Path derived = Copies.deriveManifest(manifest, copies, profile, maxRounds, scenarios, null, null,
                    workdir.resolve("ab-benchmarks.json"));
            SequentialRule rule = new SequentialRule(Math.min(minRounds, maxRounds), maxRounds, budgetMinutes * 60,
                    ALPHA, EARLY_ALPHA, rules, System.out);
            // A failed start keeps its round's other figures: the verdict tests failures round by round (D5).
            Path runDir = BenchmarkRun.execute(RunOptions.of(root, derived, profile, workdir.resolve("results"),
                    List.of(), List.of(), seed == null ? null : (long) seed, flameGraphs ? 1 : 0)
                    .with(RunOptions.FailedStarts.RECORDED_PER_START), rule, System.out);

            RunRecord run = RunRecord.read(runDir);
            if (flameGraphs) {
                System.out.println("flame graphs: " + FlameGraphComparison.write(runDir, run)
                        + " base ↔ head pages in " + runDir.resolve("flamegraphs/ab"));
            }
            Design design = new Design(base, head, rule.verdictAlpha(), rules, rule.stopReason(), 0,
                    scope == null ? null : scope.describe());
            AtomicFiles.writeString(runDir.resolve(Design.FILE), Json.MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(design.toJson()) + "\n");
            Judgement judgement = design.judge(run);
            List<String> context = new ArrayList<>();
            if (design.scope() != null) {
                context.add("Measured: " + design.scope() + ".");
            }
            context.add("Stopped: " + (rule.stopReason() == null ? "all planned rounds ran" : rule.stopReason())
                    + "; results in `" + (runDir.startsWith(root) ? root.relativize(runDir) : runDir) + "`.");
            if (history != null) {
                context.add(historyContext(new History(history), InterleavedRun.select(run, "head", head), rules));
            }
            return report(judgement, run, runDir.toString(), context);
        } finally {
            if (!keepWorktrees) {
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
    private int judgeRecorded(Path dir) throws Exception {
        RunRecord run;
        Design design;
        try {
            run = RunRecord.read(dir);
            design = Design.read(dir.resolve(Design.FILE), baseRef, headRef,
                    () -> MetricRules.of(Manifests.load(rootOption.path().resolve("benchmarks.json"))));
            for (String side : List.of("base", "head")) {
                if (InterleavedRun.select(run, side, null).cells().isEmpty()) {
                    throw new IllegalArgumentException(dir + ": the run has no " + side + " side (<variant>--" + side + ")");
                }
            }
        } catch (IllegalArgumentException | java.io.IOException e) {
            System.err.println("bench ab --from: " + e.getMessage());
            return 2;
        }
        Judgement judgement = design.judge(run);
        List<String> context = new ArrayList<>();
        if (design.scope() != null) {
            context.add("Measured: " + design.scope() + ".");
        }
        context.add("Judged from the recorded A/B run"
                + (design.stopReason() == null ? "" : "; the measuring run stopped: " + design.stopReason()) + ".");
        // As bench-ab.sh measures it in CI (--workdir results/ab) and the workflow uploads results/ as the artifact.
        return report(judgement, run, "ab/results/" + run.runId(), context);
    }

    /**
     * Prints the PR-comment markdown (and writes it to --output); the exit code --fail-on-regression asks for.
     *
     * @param runDir where the run's files are: the local directory, or its folder in the CI results artifact
     */
    private int report(Judgement judgement, RunRecord run, String runDir, List<String> context)
            throws java.io.IOException {
        return comment.print(PrComment.render(judgement, comment.links()
                .withFlameGraphs(runDir, FlameGraphComparison.pairs(run)), context), judgement);
    }

    /**
     * A head that changes no variant of the profile and not the harness: no build, no run, a comment that says so
     * (and {@code scope.json} in --workdir, which the PR workflow hands to the comment job instead of a run record).
     */
    private int nothingToMeasure(Path workdir, String base, String head, ChangedVariants.Scope scope)
            throws java.io.IOException {
        com.fasterxml.jackson.databind.node.ObjectNode record = Json.MAPPER.createObjectNode();
        record.put("base", base).put("head", head).put("profile", profile);
        record.putArray("measured");
        com.fasterxml.jackson.databind.node.ObjectNode skipped = record.putObject("skipped");
        scope.skipped().forEach(skipped::put);
        Files.createDirectories(workdir);
        AtomicFiles.writeString(workdir.resolve(SCOPE_FILE), Json.MAPPER.writerWithDefaultPrettyPrinter()
                .writeValueAsString(record) + "\n");
        String markdown = nothingToMeasureComment(head, profile);
        System.out.print(markdown);
        comment.write(markdown);
        return 0;
    }

    /** The file a measureless A/B leaves in --workdir. */
    static final String SCOPE_FILE = "scope.json";

    /** The PR comment of an A/B that had nothing to measure (also what comment-render.sh posts for it). */
    static String nothingToMeasureComment(String head, String profile) {
        return PrComment.MARKER + "\n**➖ Nothing to measure** for head `" + head.substring(0, Math.min(12, head.length()))
                + "`: it changes no variant of profile " + profile + " (no build input, no manifest entry) and not the"
                + " harness, so no A/B ran.\n";
    }

    /** One line: head of this A/B against the history, for context only (usually another environment). */
    static String historyContext(History history, RunRecord head, MetricRules rules) throws java.io.IOException {
        Judgement judgement = HistoryJudge.judge(history.loadRuns(), head, 30, ALPHA, rules);
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

}
