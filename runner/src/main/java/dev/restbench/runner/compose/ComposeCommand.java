package dev.restbench.runner.compose;

import dev.restbench.manifest.Manifest;
import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.io.AtomicFiles;
import dev.restbench.runner.manifest.Manifests;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code ./bench compose}: rewrites the compose services and Prometheus jobs of the variants from benchmarks.json. */
public final class ComposeCommand implements Command {

    @Override
    public String summary() {
        return "write the variants' compose services and Prometheus jobs from benchmarks.json (--check: only compare)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench compose [--check] [--root dir]

                Rewrites the variant services of compose/compose.yaml (between its '>>> variants' and '<<< variants'
                lines; the rest of the file is written by hand) and compose/prometheus/prometheus.yml from
                benchmarks.json. Run it after adding, renaming or removing a variant; a test fails while the
                checked-in files differ from what the manifest gives.

                options:
                  --check      write nothing; exit 1 and name the files that differ
                  --root dir   repository root (default: the checkout ./bench lives in)""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options o = Options.parse(args, Set.of("root"), Set.of("check"));
        if (!o.positional().isEmpty()) {
            throw new UsageException("unexpected argument '" + o.positional().get(0) + "'");
        }
        Path root = Path.of(o.value("root").orElse(System.getProperty("restbench.root", "."))).toAbsolutePath().normalize();
        Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
        List<String> stale = new ArrayList<>();
        for (Map.Entry<String, String> file : ComposeFiles.render(root, manifest).entrySet()) {
            Path path = root.resolve(file.getKey());
            if (Files.isRegularFile(path) && Files.readString(path).equals(file.getValue())) {
                continue;
            }
            stale.add(file.getKey());
            if (!o.flag("check")) {
                AtomicFiles.writeString(path, file.getValue());
            }
        }
        if (o.flag("check")) {
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
