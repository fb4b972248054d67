package dev.restbench.runner.build;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.io.Trees;
import dev.restbench.runner.manifest.Manifests;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/** {@code ./bench build}: the selected variants' build steps, as benchmarks.json defines them, only when stale. */
public final class BuildCommand implements Command {

    @Override
    public String summary() {
        return "build the variants' artifacts as benchmarks.json says (only what is stale)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench build [--variants a,b] [--where key=glob]… [--profile name] [--tests] [--force]

                Runs each selected variant's build step from benchmarks.json when its artifact is missing or its
                inputs (its folder; for Maven variants also the shared modules and the root pom) changed since the
                last build. Maven variants ("build": {"tool": "maven"}) are built together with the shared modules
                in a reactor generated under target/restbench-build/ (no root-pom entry, nothing installed into
                ~/.m2); "tool": "command" variants run their argv from the repository root. A build step shared by
                several variants (an entry that extends another) runs once, on the lowest JDK among them.
                The ./bench script builds the runner itself (the root reactor) when needed; ./bench run builds
                its variants with this command before it starts.

                options:
                  --variants a,b       these variants (default: every variant in the manifest)
                  --where key=glob     only variants whose classification matches (repeatable), e.g. jdk=25
                  --profile name       the variants of this profile
                  --tests              also run the variants' own tests (Maven: verify; command: its "test" argv),
                                       whether or not they are stale
                  --force              build even what is up to date
                  --list               print each build step and whether it is stale; build nothing
                  --copy-to dir        then copy each variant's artifact into dir (what a container image takes)
                  --manifest file      (default: <root>/benchmarks.json)
                  --root dir           repository root (default: the checkout ./bench lives in)

                exit codes: 0 built (or up to date), 1 a build failed, 2 bad input""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options o = Options.parse(args, Set.of("variants", "where", "profile", "manifest", "root", "copy-to"),
                Set.of("tests", "force", "list"));
        if (!o.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + o.positional().get(0) + "'");
        }
        Path root = Path.of(o.value("root").orElse(System.getProperty("restbench.root", "."))).toAbsolutePath().normalize();
        Manifest manifest = Manifests.load(o.value("manifest").map(Path::of).orElse(root.resolve("benchmarks.json")));
        List<Manifest.Variant> variants = select(manifest, o.value("variants"), o.values("where"), o.value("profile"));
        VariantBuilder builder = new VariantBuilder(root, manifest, Runtimes.ofThisMachine(), System.out);
        if (o.flag("list")) {
            for (VariantBuilder.Step step : builder.steps(variants)) {
                System.out.printf("%-40s %-8s %s%n", step.names(), step.build().tool(),
                        builder.staleness(step).map(why -> "stale: " + why).orElse("up to date"));
            }
            return 0;
        }
        try {
            builder.build(variants, o.flag("force"), o.flag("tests"));
        } catch (VariantBuilder.BuildFailure | Runtimes.NotFound e) {
            System.err.println("bench build: " + e.getMessage());
            return e instanceof Runtimes.NotFound ? 2 : 1;
        }
        if (o.value("copy-to").isPresent()) {
            Path target = Path.of(o.value("copy-to").get()).toAbsolutePath();
            for (Manifest.Variant variant : variants) {
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
    public static List<Manifest.Variant> select(Manifest manifest, java.util.Optional<String> names, List<String> where,
                                         java.util.Optional<String> profileName) {
        Manifest.Profile profile = null;
        if (profileName.isPresent()) {
            profile = manifest.profiles().get(profileName.get());
            if (profile == null) {
                throw new UsageException("unknown profile '" + profileName.get() + "' (manifest has: "
                        + String.join(", ", manifest.profiles().keySet()) + ")");
            }
        }
        List<Manifest.Variant> variants = new ArrayList<>();
        List<String> wanted = names.map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(profile != null && profile.variants() != null ? profile.variants() : List.of());
        if (wanted.isEmpty()) {
            variants.addAll(manifest.variants());
        }
        for (String name : wanted) {
            variants.add(manifest.variant(name).orElseThrow(() -> new UsageException("unknown variant '" + name
                    + "' (manifest has: " + String.join(", ", manifest.variants().stream().map(Manifest.Variant::name).toList()) + ")")));
        }
        try {
            return VariantFilter.parse(where).and(profile == null ? null : profile.where()).apply(variants, manifest.variants());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
