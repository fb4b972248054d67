package dev.restbench.runner.build;

import dev.restbench.manifest.LaunchCommand;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import dev.restbench.manifest.VariantFilter;
import dev.restbench.runner.Converters;
import dev.restbench.runner.RootOption;
import dev.restbench.runner.UsageException;
import dev.restbench.runner.isolation.ServiceUser;
import dev.restbench.runner.manifest.Manifests;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code ./bench start}: one variant started by hand exactly as the runner starts it (the manifest's command, JDK or
 * Node.js, JVM options and env), or, with {@code --print}, that command for a script to start.
 */
@Command(name = "start",
        header = "start one variant as benchmarks.json says (by hand, or --print its command for a script)",
        customSynopsis = {"./bench start <variant> [--port N] [--db-url URL] [--print]",
                "       ./bench start --list [--where key=glob]…"},
        description = "Starts the variant in the foreground (Ctrl-C stops it) with the manifest's command: its JDK or"
                + " Node.js as found on this machine, its JVM options and env, PORT and BIND_ADDRESS=127.0.0.1. Its"
                + " database is its default DB_URL (./bench db's, jdbc:postgresql://127.0.0.1:54329/bench) unless"
                + " --db-url is given. Builds it first when stale (./bench build).")
public final class StartCommand implements Callable<Integer> {

    @Parameters(paramLabel = "<variant>", arity = "0..1", description = "the variant to start")
    private String name;

    @Option(names = "--port", paramLabel = "<n>", converter = Converters.Port.class,
            description = "default 8081, 8082, … in manifest order")
    private Integer port;

    @Option(names = "--db-url", paramLabel = "<url>",
            description = "DB_URL for the variant (user and password stay postgres/postgres)")
    private String dbUrl;

    @Option(names = "--print", arity = "0",
            description = "print the environment (NAME=value lines) and then the command, one word per line, and"
                    + " start nothing: mapfile -t cmd < <(./bench start v --print); env \"$${cmd[@]}\" &")
    private boolean print;

    @Option(names = "--list", arity = "0",
            description = "print the variants (those matching --where), one per line: name, dialect and health path,"
                    + " tab-separated")
    private boolean list;

    @Option(names = "--where", paramLabel = "key=glob",
            description = "with --list: only variants whose classification matches (repeatable)")
    private List<String> where = new ArrayList<>();

    @Mixin
    private RootOption rootOption;

    @Override
    public Integer call() throws Exception {
        Path root = rootOption.path();
        Manifest manifest = Manifests.load(root.resolve("benchmarks.json"));
        if (list) {
            try {
                VariantFilter.parse(where).apply(manifest.variants(), manifest.variants())
                        .forEach(v -> System.out.println(v.name() + "\t" + v.dialect() + "\t" + v.healthPath()));
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            return 0;
        }
        if (name == null) {
            throw new UsageException("name one variant (./bench start --list shows them)");
        }
        Manifest.Variant variant = manifest.variant(name).orElseThrow(() -> new UsageException("unknown variant '"
                + name + "' (manifest has: " + String.join(", ", manifest.variants().stream().map(Manifest.Variant::name).toList()) + ")"));
        int port = this.port != null ? this.port : 8081 + manifest.variants().indexOf(variant);
        Runtimes runtimes = Runtimes.ofThisMachine();
        if (!print && ServiceUser.configured().isPresent()) {
            // A start by hand is the developer's own: it is not measured, and it would not run as that user.
            throw new UsageException(ServiceUser.ENV + " is set: ./bench start starts variants as you, not as "
                    + ServiceUser.configured().get().name() + "; unset it, or start --print's command as that user");
        }
        if (!print) {
            new VariantBuilder(root, manifest, runtimes, System.out).build(List.of(variant), false, false);
        }
        LaunchCommand.Launch launch = LaunchCommand.of(variant, runtimes.find(variant.runtime()),
                root.resolve(variant.artifact()), port, List.of());
        Map<String, String> env = new LinkedHashMap<>(launch.env());
        if (dbUrl != null) {
            env.put("DB_URL", dbUrl);
        }
        if (print) {
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
}
