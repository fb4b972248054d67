package dev.restbench.runner.build;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.isolation.BuildSandbox;
import dev.restbench.runner.isolation.ServiceUser;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds variants as benchmarks.json says, only what is stale: the one builder behind {@code ./bench build},
 * {@code ./bench run} (before it starts), {@code ./bench ab} and {@code ./bench drill}, {@code ./run-tests} and the
 * compose image.
 *
 * <p>A build step is what several variants may share (spring-mvc and its JDK-25 copy share spring-mvc's). Maven
 * steps ({@code "tool": "maven"}) are built together in a reactor this class writes to
 * {@code target/restbench-build/}: the shared modules ({@code shared.maven}) plus the variant modules, so a variant
 * needs no entry in the root pom and nothing is installed into ~/.m2 (where another checkout's shared modules could
 * be picked up). Command steps run their argv from the repository root. A step is stale when its artifact is
 * missing or its inputs' fingerprint ({@link BuildInputs}) differs from the one recorded after its last success.
 *
 * <p>With a {@link ServiceUser} ({@code BENCH_SERVICE_USER}) the build tools run as that user in a copy of the tree
 * ({@link BuildSandbox}): the variant's pom, its plugins and {@code npm ci} are the variant's code too. Only each
 * step's artifact comes back into the tree; the stamps are written by the runner as before.
 */
public final class VariantBuilder {
    public static final String WORK = "target/restbench-build";

    private final Path root;
    private final Manifest manifest;
    private final Runtimes runtimes;
    private final PrintStream out;
    private final Optional<ServiceUser> serviceUser;
    /** The copy the current {@link #build} runs its tools in, as the service user; null without one. */
    private BuildSandbox sandbox;

    /** Builds as {@code BENCH_SERVICE_USER} when it is set ({@link ServiceUser#configured()}). */
    public VariantBuilder(Path root, Manifest manifest, Runtimes runtimes, PrintStream out) {
        this(root, manifest, runtimes, out, ServiceUser.configured());
    }

    public VariantBuilder(Path root, Manifest manifest, Runtimes runtimes, PrintStream out,
                          Optional<ServiceUser> serviceUser) {
        this.root = root.toAbsolutePath().normalize();
        this.manifest = manifest;
        this.runtimes = runtimes;
        this.out = out;
        this.serviceUser = serviceUser;
    }

    /**
     * One distinct build and the selected variants that use its artifact.
     *
     * @param runtime the lowest version among the runtimes of every manifest variant sharing the build (selected or
     *                not): the artifact must run on each, and the step's fingerprint must not depend on the selection
     */
    public record Step(String id, Manifest.Build build, String folder, String artifact,
                       List<Manifest.Variant> variants, Manifest.Runtime runtime) {

        String names() {
            return String.join(", ", variants.stream().map(Manifest.Variant::name).toList());
        }
    }

    /** The build steps of these variants (those without a build step are left out), in variant order. */
    public static List<Step> steps(List<Manifest.Variant> selected, List<Manifest.Variant> all) {
        Map<String, List<Manifest.Variant>> byKey = new LinkedHashMap<>();
        for (Manifest.Variant variant : selected) {
            if (variant.build() != null) {
                byKey.computeIfAbsent(key(variant), k -> new ArrayList<>()).add(variant);
            }
        }
        List<Step> steps = new ArrayList<>();
        byKey.forEach((key, sharing) -> {
            Manifest.Variant first = sharing.get(0);
            String id = first.folder().replaceAll("[^A-Za-z0-9._-]", "_")
                    + (first.build().isMaven() ? "" : "-" + Integer.toHexString(key.hashCode()));
            Manifest.Runtime runtime = all.stream().filter(v -> v.build() != null && key(v).equals(key))
                    .map(Manifest.Variant::runtime).min(Comparator.comparingInt(Manifest.Runtime::version))
                    .orElse(first.runtime());
            steps.add(new Step(id, first.build(), first.folder(), first.artifact(), List.copyOf(sharing), runtime));
        });
        return steps;
    }

    /** The build steps of these variants of this builder's manifest. */
    public List<Step> steps(List<Manifest.Variant> selected) {
        return steps(selected, manifest.variants());
    }

    private static String key(Manifest.Variant variant) {
        return variant.build().tool() + "|" + variant.folder() + "|" + variant.build().command() + "|" + variant.artifact();
    }

    /** Why a step must run, or empty when its artifact is up to date. */
    public Optional<String> staleness(Step step) {
        if (!Files.exists(root.resolve(step.artifact()))) {
            return Optional.of(step.artifact() + " is missing");
        }
        Path stamp = stamp(step);
        if (!Files.isRegularFile(stamp)) {
            return Optional.of("not built by ./bench build in this checkout yet");
        }
        try {
            if (!Files.readString(stamp).trim().equals(fingerprint(step))) {
                return Optional.of("its inputs changed since the last build");
            }
        } catch (IOException e) {
            return Optional.of("cannot read " + stamp + ": " + e.getMessage());
        }
        return Optional.empty();
    }

    /**
     * Builds the stale steps of these variants (all of them with {@code force}); with {@code tests} also runs their
     * tests (Maven: {@code verify} of the variant modules; command steps: their {@code test} argv).
     *
     * @throws BuildFailure one line: which step failed and how (the tool's output was printed above)
     */
    public void build(List<Manifest.Variant> variants, boolean force, boolean tests) {
        List<Step> maven = new ArrayList<>();
        List<Step> commands = new ArrayList<>();
        for (Step step : steps(variants)) {
            Optional<String> why = force ? Optional.of("--force") : staleness(step);
            if (why.isEmpty() && !tests) {
                out.println("build: " + step.names() + ": up to date (" + step.artifact() + ")");
                continue;
            }
            why.ifPresent(reason -> out.println("build: " + step.names() + ": " + reason));
            (step.build().isMaven() ? maven : commands).add(step);
        }
        List<List<Step>> reactors = reactors(maven);
        if (serviceUser.isPresent() && !(reactors.isEmpty() && commands.isEmpty())) {
            buildIsolated(reactors, commands, force, tests);
            return;
        }
        for (List<Step> reactor : reactors) {
            buildMaven(reactor, writePom(reactor), tests);
        }
        for (Step step : commands) {
            buildCommand(step, tests, force || staleness(step).isPresent());
        }
    }

    /** The same steps in one copy of the tree, as the service user (the reactor poms go in with it). */
    private void buildIsolated(List<List<Step>> reactors, List<Step> commands, boolean force, boolean tests) {
        ServiceUser user = serviceUser.orElseThrow();
        List<Path> poms = new ArrayList<>();
        try {
            // Checked before the runner writes there: a committed link must not redirect its writes.
            BuildSandbox.requireNoLinks(root, WORK + "/stamps");
            for (List<Step> reactor : reactors) {
                poms.add(writePom(reactor));
            }
            out.println("build: as " + user.describe() + ", in a copy of " + root);
            sandbox = BuildSandbox.open(user, root, WORK, poms);
        } catch (IOException | RuntimeException e) {
            throw new BuildFailure("cannot prepare the build as " + user.name() + ": " + e.getMessage());
        }
        try {
            for (int i = 0; i < reactors.size(); i++) {
                buildMaven(reactors.get(i), poms.get(i), tests);
            }
            for (Step step : commands) {
                buildCommand(step, tests, force || staleness(step).isPresent());
            }
        } finally {
            try {
                sandbox.close();
            } catch (IOException | RuntimeException e) {
                out.println("build: cleaning up the copy: " + e.getMessage());
            }
            sandbox = null;
        }
    }

    /**
     * Maven steps grouped into as few reactors as possible: one per build JDK, and never two modules with the same
     * artifactId in one reactor (Maven refuses that; a copied variant folder keeps its artifactId).
     */
    private List<List<Step>> reactors(List<Step> steps) {
        List<List<Step>> reactors = new ArrayList<>();
        List<List<String>> artifactIds = new ArrayList<>();
        for (Step step : steps) {
            String artifactId = MavenReactor.artifactId(root.resolve(step.folder()).resolve("pom.xml"));
            int target = -1;
            for (int i = 0; i < reactors.size(); i++) {
                if (reactors.get(i).get(0).runtime().equals(step.runtime()) && !artifactIds.get(i).contains(artifactId)) {
                    target = i;
                    break;
                }
            }
            if (target < 0) {
                reactors.add(new ArrayList<>());
                artifactIds.add(new ArrayList<>());
                target = reactors.size() - 1;
            }
            reactors.get(target).add(step);
            artifactIds.get(target).add(artifactId);
        }
        return reactors;
    }

    private Path writePom(List<Step> steps) {
        return MavenReactor.write(root, manifest.shared().maven(), steps.stream().map(Step::folder).toList(),
                steps.get(0).id() + (steps.size() > 1 ? "-and-" + (steps.size() - 1) : ""));
    }

    private void buildMaven(List<Step> steps, Path pom, boolean tests) {
        Manifest.Runtime jdk = steps.get(0).runtime();
        Runtimes.Found found = runtimes.find(jdk);
        Map<String, String> fingerprints = fingerprints(steps);
        // In the service user's copy, the copy's own wrapper (relative to where the build runs).
        List<String> argv = new ArrayList<>(List.of(sandbox != null ? "./mvnw" : root.resolve("mvnw").toString(),
                "-B", "-q", "-f", root.relativize(pom).toString()));
        if (tests) {
            // The shared modules' tests run in the root reactor (./mvnw verify); here only the variants' own.
            argv.addAll(List.of("verify", "-Drestbench.sharedTests.skip=true"));
        } else {
            argv.addAll(List.of("package", "-DskipTests"));
        }
        String names = String.join(", ", steps.stream().map(Step::names).toList());
        out.println("build: " + names + ": " + String.join(" ", argv.subList(1, argv.size())).replace(root + "/", "")
                + " (" + jdk + ": " + found.home() + ")");
        run(argv, Map.of("JAVA_HOME", found.home().toString()), "Maven build of " + names);
        for (Step step : steps) {
            finish(step, fingerprints.get(step.id()));
        }
    }

    private void buildCommand(Step step, boolean tests, boolean stale) {
        Runtimes.Found found = runtimes.find(step.runtime());
        Map<String, String> env = runtimeEnv(found);
        if (stale) {
            String fingerprint = fingerprint(step);
            out.println("build: " + step.names() + ": " + String.join(" ", step.build().command()) + " (" + step.runtime() + ")");
            run(step.build().command(), env, "build of " + step.names());
            finish(step, fingerprint);
        }
        if (tests && step.build().test() != null) {
            out.println("test: " + step.names() + ": " + String.join(" ", step.build().test()));
            run(step.build().test(), env, "tests of " + step.names());
        }
    }

    /**
     * The runtime first on PATH (npm next to its node) and, for a JDK, as JAVA_HOME; nothing for a native executable,
     * whose build command finds (or installs) its own toolchain.
     */
    private static Map<String, String> runtimeEnv(Runtimes.Found found) {
        Map<String, String> env = new LinkedHashMap<>();
        if (found.executable() == null) {
            return env;
        }
        env.put("PATH", found.executable().getParent() + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        if (found.runtime().isJdk()) {
            env.put("JAVA_HOME", found.home().toString());
        }
        return env;
    }

    private Map<String, String> fingerprints(List<Step> steps) {
        Map<String, String> fingerprints = new LinkedHashMap<>();
        steps.forEach(step -> fingerprints.put(step.id(), fingerprint(step)));
        return fingerprints;
    }

    private void finish(Step step, String fingerprint) {
        if (sandbox != null) {
            try {
                sandbox.copyBack(step.artifact());
            } catch (IOException | RuntimeException e) {
                throw new BuildFailure("the build of " + step.names() + " succeeded but its artifact " + step.artifact()
                        + " cannot be taken from the build's copy: " + e.getMessage());
            }
        }
        if (!Files.exists(root.resolve(step.artifact()))) {
            throw new BuildFailure("the build of " + step.names() + " succeeded but did not produce " + step.artifact()
                    + " (the manifest's artifact)");
        }
        try {
            Path stamp = stamp(step);
            Files.createDirectories(stamp.getParent());
            Files.writeString(stamp, fingerprint + "\n");
        } catch (IOException e) {
            throw new BuildFailure("cannot record the build of " + step.names() + ": " + e.getMessage());
        }
    }

    /**
     * The files and folders (repository-relative) a build step reads: its folder, its build's {@code inputs}, and for
     * Maven the shared modules, the root pom and {@code .mvn}. What makes a build stale here, and what decides which
     * variants an A/B measures ({@code ab.ChangedVariants}).
     */
    public static List<String> inputPaths(Manifest manifest, String folder, Manifest.Build build) {
        List<String> inputs = new ArrayList<>();
        inputs.add(folder);
        if (build != null) {
            inputs.addAll(build.inputs());
            if (build.isMaven()) {
                // A variant module inherits the root pom and compiles against the shared modules.
                inputs.addAll(manifest.shared().maven());
                inputs.addAll(List.of("pom.xml", ".mvn"));
            }
        }
        return inputs;
    }

    private String fingerprint(Step step) {
        List<String> inputs = inputPaths(manifest, step.folder(), step.build());
        List<String> extra = new ArrayList<>(List.of("runtime " + step.runtime()));
        if (!step.build().isMaven()) {
            extra.add("command " + step.build().command());
        }
        // An artifact inside its folder (not under target/) is the step's output, not an input; a directory artifact
        // that is the folder itself (a Node app) stays an input: its build adds only skipped folders (node_modules).
        return BuildInputs.fingerprint(root, inputs, root.resolve(step.artifact()).normalize(), extra);
    }

    private Path stamp(Step step) {
        return root.resolve(WORK).resolve("stamps").resolve(step.id() + ".fingerprint");
    }

    /**
     * Runs a build tool from the repository root (or the service user's copy of it), its output copied to ours; a
     * non-zero exit is a BuildFailure.
     */
    private void run(List<String> argv, Map<String, String> env, String what) {
        if (sandbox != null) {
            int exit;
            try {
                exit = sandbox.run(argv, env, line -> out.println("  " + line));
            } catch (IOException e) {
                throw new BuildFailure(what + ": cannot run " + argv.get(0) + " as " + serviceUser.orElseThrow().name()
                        + ": " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BuildFailure(what + ": interrupted");
            }
            if (exit != 0) {
                throw new BuildFailure(what + " failed (exit " + exit + "; its output is above)");
            }
            return;
        }
        ProcessBuilder builder = new ProcessBuilder(argv).directory(root.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Deque<String> tail = new ArrayDeque<>();
        int exit;
        try {
            Process process = builder.start();
            try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                    out.println("  " + line);
                    tail.addLast(line);
                    if (tail.size() > 3) {
                        tail.removeFirst();
                    }
                }
            }
            exit = process.waitFor();
        } catch (IOException e) {
            throw new BuildFailure(what + ": cannot run " + argv.get(0) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BuildFailure(what + ": interrupted");
        }
        if (exit != 0) {
            throw new BuildFailure(what + " failed (exit " + exit + "; its output is above)");
        }
    }

    /** A build that failed: one line saying which and why. */
    public static final class BuildFailure extends RuntimeException {
        public BuildFailure(String message) {
            super(message);
        }
    }
}
