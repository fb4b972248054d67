package dev.restbench.runner.build;

import dev.restbench.manifest.LaunchCommand;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.Command;
import dev.restbench.runner.Options;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.manifest.Manifests;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ./bench start}: one variant started by hand exactly as the runner starts it (the manifest's command, JDK or
 * Node.js, JVM options and env), or, with {@code --print}, that command for a script to start.
 */
public final class StartCommand implements Command {

    @Override
    public String summary() {
        return "start one variant as benchmarks.json says (by hand, or --print its command for a script)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench start <variant> [--port N] [--db-url URL] [--print]
                       ./bench start --list [--where key=glob]…

                Starts the variant in the foreground (Ctrl-C stops it) with the manifest's command: its JDK or
                Node.js as found on this machine, its JVM options and env, PORT and BIND_ADDRESS=127.0.0.1. Its
                database is its default DB_URL (./bench db's, jdbc:postgresql://127.0.0.1:54329/bench) unless
                --db-url is given. Builds it first when stale (./bench build).

                options:
                  --port N      default 8081, 8082, … in manifest order
                  --db-url URL  DB_URL for the variant (user and password stay postgres/postgres)
                  --print       print the environment (NAME=value lines) and then the command, one word per line,
                                and start nothing: mapfile -t cmd < <(./bench start v --print); env "${cmd[@]}" &
                  --list        print the variants (those matching --where), one per line: name, dialect and
                                health path, tab-separated""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        Options o = Options.parse(args, Set.of("port", "db-url", "where", "root"), Set.of("print", "list"));
        Path root = Path.of(o.value("root").orElse(System.getProperty("restbench.root", "."))).toAbsolutePath().normalize();
        Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
        if (o.flag("list")) {
            try {
                VariantFilter.parse(o.values("where")).apply(manifest.variants(), manifest.variants())
                        .forEach(v -> System.out.println(v.name() + "\t" + v.dialect() + "\t" + v.healthPath()));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return 0;
        }
        if (o.positional().size() != 1) {
            throw new UsageException("name one variant (./bench start --list shows them)");
        }
        String name = o.positional().get(0);
        Manifest.Variant variant = manifest.variant(name).orElseThrow(() -> new UsageException("unknown variant '"
                + name + "' (manifest has: " + String.join(", ", manifest.variants().stream().map(Manifest.Variant::name).toList()) + ")"));
        int port = o.value("port").map(StartCommand::port)
                .orElse(8081 + manifest.variants().indexOf(variant));
        Runtimes runtimes = Runtimes.ofThisMachine();
        if (!o.flag("print")) {
            new VariantBuilder(root, manifest, runtimes, System.out).build(List.of(variant), false, false);
        }
        LaunchCommand.Launch launch = LaunchCommand.of(variant, runtimes.find(variant.runtime()),
                root.resolve(variant.artifact()), port, List.of());
        Map<String, String> env = new LinkedHashMap<>(launch.env());
        o.value("db-url").ifPresent(url -> env.put("DB_URL", url));
        if (o.flag("print")) {
            env.forEach((k, v) -> System.out.println(k + "=" + v));
            launch.argv().forEach(System.out::println);
            return 0;
        }
        ProcessBuilder builder = new ProcessBuilder(launch.argv()).inheritIO();
        builder.environment().putAll(env);
        System.out.println("start: " + name + " on http://127.0.0.1:" + port + " (Ctrl-C stops it): "
                + String.join(" ", launch.argv()));
        Process process = builder.start();
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroy, "stop-" + name));
        return process.waitFor();
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port > 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // below
        }
        throw new UsageException("--port must be a number from 1 to 65535, was '" + text + "'");
    }
}
