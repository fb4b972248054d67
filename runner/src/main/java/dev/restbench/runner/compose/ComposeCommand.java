package dev.restbench.runner.compose;

import dev.restbench.manifest.Manifest;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.manifest.Manifests;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code ./bench compose}: rewrites the compose services and Prometheus jobs of the variants from benchmarks.json. */
@Command(name = "compose",
        header = "write the variants' compose services and Prometheus jobs from benchmarks.json (--check: only compare)",
        description = "Rewrites the variant services of compose/compose.yaml (between its '>>> variants' and '<<<"
                + " variants' lines; the rest of the file is written by hand) and compose/prometheus/prometheus.yml from"
                + " benchmarks.json. Run it after adding, renaming or removing a variant; a test fails while the"
                + " checked-in files differ from what the manifest gives.")
public final class ComposeCommand implements Callable<Integer> {

    @Option(names = "--check", arity = "0", description = "write nothing; exit 1 and name the files that differ")
    private boolean check;

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        Path root = rootOption.path();
        Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> file : ComposeFiles.render(root, manifest).entrySet()) {
            Path path = root.resolve(file.getKey());
            if (Files.isRegularFile(path) && Files.readString(path).equals(file.getValue())) {
                continue;
            }
            stale.add(file.getKey());
            if (!check) {
                AtomicFiles.writeString(path, file.getValue());
            }
        }
        if (check) {
            if (!stale.isEmpty()) {
                System.err.println("bench compose: " + String.join(", ", stale) + " differ from benchmarks.json;"
                        + " run ./bench compose");
                return 1;
            }
            System.out.println("compose: up to date with benchmarks.json");
            return 0;
        }
        System.out.println(stale.isEmpty() ? "compose: already up to date" : "compose: wrote " + String.join(", ", stale));
        return 0;
    }
}
