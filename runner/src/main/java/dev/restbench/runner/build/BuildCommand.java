package dev.restbench.runner.build;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.io.Trees;
import dev.restbench.runner.manifest.Manifests;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code ./bench build}: the selected variants' build steps, as benchmarks.json defines them, only when stale. */
@Command(name = "build", header = "build the variants' artifacts as benchmarks.json says (only what is stale)",
        description = {"Runs each selected variant's build step from benchmarks.json when its artifact is missing or"
                + " its inputs (its folder; for Maven variants also the shared modules and the root pom) changed since"
                + " the last build. Maven variants (\"build\": {\"tool\": \"maven\"}) are built together with the shared"
                + " modules in a reactor generated under target/restbench-build/ (no root-pom entry, nothing installed"
                + " into ~/.m2); \"tool\": \"command\" variants run their argv from the repository root. A build step"
                + " shared by several variants (an entry that extends another) runs once, on the lowest JDK among"
                + " them.",
                "The ./bench script builds the runner itself (the root reactor) when needed; ./bench run builds its"
                        + " variants with this command before it starts."},
        exitCodeList = {"0:built (or up to date)", "1:a build failed", "2:bad input"})
public final class BuildCommand implements Callable<Integer> {

    @Option(names = "--variants", paramLabel = "a,b", description = "these variants (default: every variant in the manifest)")
    private String variants;

    @Option(names = "--where", paramLabel = "key=glob",
            description = "only variants whose classification matches (repeatable), e.g. jdk=25")
    private List<String> where = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "<name>", description = "the variants of this profile")
    private String profile;

    @Option(names = "--tests", arity = "0",
            description = "also run the variants' own tests (Maven: verify; command: its \"test\" argv), whether or"
                    + " not they are stale")
    private boolean tests;

    @Option(names = "--force", arity = "0", description = "build even what is up to date")
    private boolean force;

    @Option(names = "--list", arity = "0", description = "print each build step and whether it is stale; build nothing")
    private boolean list;

    @Option(names = "--copy-to", paramLabel = "<dir>",
            description = "then copy each variant's artifact into dir (what a container image takes)")
    private Path copyTo;

    @Option(names = "--manifest", paramLabel = "<file>", description = "(default: <root>/benchmarks.json)")
    private Path manifestFile;

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        Path root = rootOption.path();
        Manifest manifest = Manifests.load(manifestFile != null ? manifestFile : root.resolve("benchmarks.json"));
        List<Manifest.Variant> selected = select(manifest, Optional.ofNullable(variants), where, Optional.ofNullable(profile));
        VariantBuilder builder = new VariantBuilder(root, manifest, Runtimes.ofThisMachine(), System.out);
        if (list) {
            for (VariantBuilder.Step step : builder.steps(selected)) {
                System.out.printf("%-40s %-8s %s%n", step.names(), step.build().tool(),
                        builder.staleness(step).map(why -> "stale: " + why).orElse("up to date"));
            }
            return 0;
        }
        try {
            builder.build(selected, force, tests);
        } catch (VariantBuilder.BuildFailure | Runtimes.NotFound e) {
            System.err.println("bench build: " + e.getMessage());
            return e instanceof Runtimes.NotFound ? 2 : 1;
        }
        if (copyTo != null) {
            Path target = copyTo.toAbsolutePath();
            for (Manifest.Variant variant : selected) {
                Path artifact = root.resolve(variant.artifact());
                Path copy = target.resolve(artifact.getFileName());
                java.nio.file.Files.createDirectories(target);
                if (java.nio.file.Files.isDirectory(artifact)) {
                    Trees.copy(artifact, copy);
                } else {
                    java.nio.file.Files.copy(artifact, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
                System.out.println("build: copied " + variant.artifact() + " to " + copy);
            }
        }
        return 0;
    }

    /** --variants, else the profile's list, else all; then --where and the profile's where. */
    public static List<Manifest.Variant> select(Manifest manifest, Optional<String> names, List<String> where,
                                                Optional<String> profileName) {
        Manifest.Profile profile = null;
        if (profileName.isPresent()) {
            profile = manifest.profiles().get(profileName.get());
            if (profile == null) {
                throw new UsageException("unknown profile '" + profileName.get() + "' (manifest has: "
                        + String.join(", ", manifest.profiles().keySet()) + ")");
            }
        }
        List<String> wanted = names.map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(n -> !n.isEmpty())
                .toList()).orElse(List.of());
        return Manifests.select(manifest, wanted, where, profile);
    }
}
