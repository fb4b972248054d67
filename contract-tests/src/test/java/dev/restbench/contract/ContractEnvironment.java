package dev.restbench.contract;

import dev.restbench.dataset.DatasetSpec;
import dev.restbench.dataset.PostgresServer;
import dev.restbench.manifest.LaunchCommand;
import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeTestExecutionCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * What every suite runs against, shared by all test classes of the run: ONE embedded PostgreSQL (logging every
 * statement to a csv log, which {@link StatementLog} reads), a template database with the small dataset, and one
 * process per variant, started on first use with its own fresh copy of the template. Everything is stopped when the
 * whole test run ends (JUnit's root store), or by a shutdown hook if the JVM is told to stop first. A test that
 * fails against one variant carries what that variant printed while the test ran: a 5xx seen once in CI (a race,
 * a timeout) is then explained by the failure itself, not by a log on a machine that is gone.
 */
final class ContractEnvironment implements BeforeAllCallback, BeforeTestExecutionCallback,
        TestExecutionExceptionHandler {

    static final String TEMPLATE = "contract_template";
    static final Path OUTPUT = Path.of("target", "contract-logs").toAbsolutePath();

    private static PostgresServer postgres;
    private static RuntimeException postgresFailure;
    private static StatementLog statementLog;
    private static final Map<String, Service> services = new LinkedHashMap<>();
    private static final Map<String, RuntimeException> failures = new LinkedHashMap<>();
    private static final Map<String, VariantProcess> processes = new LinkedHashMap<>();

    /** A running variant: where it listens, which database it owns, and its paths from the manifest. */
    record Service(String variant, URI baseUri, String database, String healthPath, String metricsPath) {
    }

    /**
     * After the variant's own JVM options: a smaller heap (later flags win) and C1 only, functionally identical
     * and markedly faster to start on a shared 2-core box. A non-JVM command has no {jvmOptions} to put them in.
     */
    static final List<String> TEST_JVM_OPTIONS = List.of("-Xms64m", "-Xmx256m", "-XX:TieredStopAtLevel=1");
    private static final Runtimes RUNTIMES = Runtimes.ofThisMachine();

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getRoot().getStore(ExtensionContext.Namespace.GLOBAL)
                .getOrComputeIfAbsent(ContractEnvironment.class, key -> new Shutdown(), Shutdown.class);
    }

    private static final ExtensionContext.Namespace OUTPUT_OFFSETS =
            ExtensionContext.Namespace.create(ContractEnvironment.class, "output-offsets");

    @Override
    public void beforeTestExecution(ExtensionContext context) {
        variantUnderTest(context).ifPresent(process ->
                context.getStore(OUTPUT_OFFSETS).put(process.variant, process.outputSize()));
    }

    /** An assertion failure gets the variant's output during the test in its message; any other failure as a
     * suppressed exception. */
    @Override
    public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
        Optional<VariantProcess> process = variantUnderTest(context);
        if (process.isEmpty()) {
            throw failure;
        }
        Long offset = context.getStore(OUTPUT_OFFSETS).get(process.get().variant, Long.class);
        String printed = process.get().outputSince(offset == null ? 0 : offset);
        String output = process.get().variant + (printed.isBlank() ? " printed nothing during this test"
                : "'s output during this test (its last 80 lines):\n" + printed);
        if (failure instanceof AssertionError) {
            AssertionError withOutput = new AssertionError(failure.getMessage() + "\n" + output, failure);
            withOutput.setStackTrace(failure.getStackTrace()); // the summary still names the test's line
            throw withOutput;
        }
        failure.addSuppressed(new IllegalStateException(output));
        throw failure;
    }

    /**
     * The running variant a test runs against: the suites are parameterized by variant and their invocations are
     * named by it first ({@code "{0}"}, {@code "{0}: {1}"}, {@code "{0} ({1})"}), so the nearest enclosing context
     * whose name is a started variant's, alone or followed by a space or a colon, is the one.
     */
    static synchronized Optional<VariantProcess> variantUnderTest(ExtensionContext context) {
        for (Optional<ExtensionContext> at = Optional.of(context); at.isPresent(); at = at.get().getParent()) {
            String name = at.get().getDisplayName();
            Optional<VariantProcess> named = processes.values().stream()
                    .filter(process -> namesVariant(name, process.variant))
                    .findFirst();
            if (named.isPresent()) {
                return named;
            }
        }
        return Optional.empty();
    }

    static boolean namesVariant(String displayName, String variant) {
        return displayName.equals(variant) || displayName.startsWith(variant + " ")
                || displayName.startsWith(variant + ":");
    }

    static synchronized PostgresServer postgres() {
        if (postgresFailure != null) {
            throw new IllegalStateException("the embedded PostgreSQL could not be started earlier", postgresFailure);
        }
        if (postgres == null) {
            try {
                startPostgres();
            } catch (RuntimeException e) {
                postgresFailure = e;
                throw e;
            }
        }
        return postgres;
    }

    private static void startPostgres() {
        Path pgLogs = OUTPUT.resolve("postgres");
        deleteRecursively(pgLogs);
        try {
            // PostgreSQL creates only the last level of log_directory itself.
            Files.createDirectories(pgLogs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, String> logging = Map.of(
                "logging_collector", "on",
                "log_destination", "csvlog",
                "log_directory", pgLogs.toString(),
                "log_filename", "statements.log",
                "log_rotation_age", "0",
                "log_rotation_size", "0",
                "log_statement", "all");
        postgres = PostgresServer.embedded(0, false, logging);
        postgres.ensureTemplate(TEMPLATE, DatasetSpec.SMALL);
        statementLog = new StatementLog(postgres, pgLogs);
    }

    static synchronized StatementLog statementLog() {
        postgres();
        return statementLog;
    }

    /** The running variant, started now if it is not yet; a variant that failed to start fails every later use. */
    static synchronized Service service(String variant) {
        Service service = services.get(variant);
        if (service != null) {
            if (!processes.get(variant).isAlive()) {
                throw new IllegalStateException(variant + " died during the tests; its output:\n"
                        + processes.get(variant).outputTail());
            }
            return service;
        }
        if (failures.containsKey(variant)) {
            throw new IllegalStateException(variant + " could not be started earlier", failures.get(variant));
        }
        try {
            PostgresServer server = postgres();
            String database = "contract_" + variant.replace('-', '_');
            String url = server.createDatabaseFromTemplate(TEMPLATE, database);
            Manifest.Variant entry = ContractManifest.variant(variant);
            int port = VariantProcess.freePort();
            // Started as benchmarks.json says (its command, JDK or Node.js, env), as the runner starts it.
            LaunchCommand.Launch launch = LaunchCommand.of(entry, RUNTIMES.find(entry.runtime()),
                    privateCopy(variant, artifact(entry)), port, TEST_JVM_OPTIONS);
            Map<String, String> env = new LinkedHashMap<>(launch.env());
            env.putAll(Map.of(
                    "DB_URL", url,
                    "DB_USER", server.user(),
                    "DB_PASSWORD", server.password(),
                    "DB_POOL_SIZE", "4",
                    "HTTP_THREADS", "16"));
            VariantProcess process = VariantProcess.start(variant, launch.argv(), env, port, entry.healthPath(), OUTPUT);
            processes.put(variant, process);
            service = new Service(variant, process.baseUri, database, entry.healthPath(), entry.metricsPath());
            services.put(variant, service);
            return service;
        } catch (RuntimeException e) {
            failures.put(variant, e);
            throw e;
        }
    }

    private static Path artifact(Manifest.Variant variant) {
        Path artifact = ContractManifest.root().resolve(variant.artifact());
        if (!Files.exists(artifact)) {
            throw new IllegalStateException("no artifact for variant " + variant.name() + " at " + artifact
                    + ": build it first (./bench build --variants " + variant.name() + "; ./run-tests does)");
        }
        return artifact;
    }

    /**
     * The artifact the process runs is a copy: a rebuild of the variant while the tests run (others work in the
     * same checkout) would otherwise rewrite a jar under the running JVM, which then fails loading classes lazily.
     */
    private static Path privateCopy(String variant, Path artifact) {
        try {
            Path copy = OUTPUT.resolve("artifacts").resolve(variant).resolve(artifact.getFileName());
            deleteRecursively(copy);
            Files.createDirectories(copy.getParent());
            try (Stream<Path> files = Files.walk(artifact)) { // a file, or a directory (e.g. a Node app)
                for (Path source : files.toList()) {
                    Files.copy(source, copy.resolve(artifact.relativize(source).toString()),
                            StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
            return copy;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot copy " + artifact, e);
        }
    }

    private static synchronized void stopAll() {
        processes.values().forEach(VariantProcess::close);
        processes.clear();
        services.clear();
        if (postgres != null) {
            postgres.close();
            postgres = null;
        }
    }

    /** Closed by JUnit when the run ends. */
    private static final class Shutdown implements ExtensionContext.Store.CloseableResource, AutoCloseable {
        private final Thread hook = new Thread(ContractEnvironment::stopAll, "contract-environment-shutdown");

        Shutdown() {
            Runtime.getRuntime().addShutdownHook(hook);
        }

        @Override
        public void close() {
            stopAll();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException alreadyShuttingDown) {
                // the hook is running or has run: nothing left to do
            }
        }
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
