package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The promise that a variant is one folder plus one manifest entry, kept by a test: in a copy of this repository
 * (nothing tracked here is touched), jersey's folder is copied to services/throwaway and benchmarks.json gets one
 * entry for it; then, with no other file changed, the copy's {@code ./bench build} builds it, the manifest-driven
 * contract suites (plain, hostile requests, SQL counts, shared endpoints) test it, and {@code ./bench run --profile
 * smoke} benchmarks it. Real processes throughout: Maven, the variant, embedded PostgreSQL, Gatling.
 *
 * <p>Runs in its own surefire execution after the other suites, so their services are stopped by then.
 */
class ThrowawayVariantTest {

    private static final String NAME = "throwaway";
    /** The variant copied: the quickest to build and to start. */
    private static final String SOURCE = "jersey";
    private static final Duration STEP_TIMEOUT = Duration.ofMinutes(10);
    /** Build outputs and caches, wherever they are: not part of a checkout. */
    private static final Set<String> NOT_COPIED = Set.of("target", "node_modules", ".git");
    /** Run data and test output at their own places (a source package may well be called "history"). */
    private static final Set<String> NOT_COPIED_PATHS = Set.of("results", "history", "site/test-artifacts");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Test
    void aCopiedFolderAndOneManifestEntryAreBuiltContractTestedAndBenchmarked(@TempDir Path tmp) throws Exception {
        Path root = ContractManifest.root();
        Path copy = tmp.resolve("repo");
        copyTree(root, copy);
        Map<String, String> before = fingerprints(copy);
        // The harness as this build made it (same sources): the copy's ./bench then starts without rebuilding it.
        for (String built : List.of("runner/target/runner.jar", "gatling/target/gatling-classpath.txt")) {
            if (Files.isRegularFile(root.resolve(built))) {
                Files.createDirectories(copy.resolve(built).getParent());
                Files.copy(root.resolve(built), copy.resolve(built), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }

        // The new variant: a folder and an entry, nothing else.
        JsonNode sourceEntry = entry(copy, SOURCE);
        String folder = "services/" + NAME;
        copyTree(root.resolve(sourceEntry.get("folder").asText()), copy.resolve(folder));
        ObjectNode entry = sourceEntry.deepCopy();
        entry.put("name", NAME).put("label", "Throwaway copy of " + SOURCE).put("folder", folder)
                .put("artifact", entry.get("artifact").asText().replace(sourceEntry.get("folder").asText() + "/", folder + "/"));
        ObjectNode manifest = (ObjectNode) JSON.readTree(copy.resolve("benchmarks.json").toFile());
        ((ArrayNode) manifest.get("variants")).add(entry);
        JSON.writeValue(copy.resolve("benchmarks.json").toFile(), manifest);

        Step build = run(copy, tmp.resolve("build.log"), List.of("./bench", "build", "--variants", NAME));
        assertThat(build.exit()).as("./bench build in the copy:\n%s", build.tail()).isZero();
        assertThat(copy.resolve(entry.get("artifact").asText())).exists();

        Step contract = run(copy.resolve("contract-tests"), tmp.resolve("contract.log"), List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "-Drestbench.root=" + copy, "-Drestbench.variants=" + NAME,
                ContractSuiteMain.class.getName()));
        assertThat(contract.exit()).as("contract suites against %s:\n%s", NAME, contract.tail()).isZero();
        // The plain suite, the hostile requests, the SQL counts and the shared endpoints: 82 tests today.
        java.util.regex.Matcher summary = java.util.regex.Pattern.compile("contract suites: (\\d+) succeeded, 0 failed")
                .matcher(contract.output());
        assertThat(summary.find()).as(contract.tail()).isTrue();
        assertThat(Integer.parseInt(summary.group(1))).as("tests run against %s", NAME).isGreaterThanOrEqualTo(80);

        Path results = tmp.resolve("results");
        Step smoke = run(copy, tmp.resolve("smoke.log"), List.of("./bench", "run", "--profile", "smoke",
                "--variants", NAME, "--results", results.toString(), "--no-history", "--no-tables"));
        assertThat(smoke.exit()).as("./bench run --profile smoke in the copy:\n%s", smoke.tail()).isZero();
        Path runJson;
        try (var runs = Files.list(results)) {
            runJson = runs.map(dir -> dir.resolve("run.json")).filter(Files::isRegularFile).findFirst().orElseThrow();
        }
        JsonNode run = JSON.readTree(runJson.toFile());
        assertThat(run.get("status").asText()).isEqualTo("ok");
        assertThat(run.get("cells")).isNotEmpty().allSatisfy(cell -> {
            assertThat(cell.get("variant").asText()).isEqualTo(NAME);
            assertThat(cell.get("status").asText()).isEqualTo("ok");
        });
        JsonNode variant = run.get("variants").get(0);
        assertThat(variant.get("label").asText()).isEqualTo("Throwaway copy of " + SOURCE);
        assertThat(variant.get("classification").get("framework").asText())
                .isEqualTo(sourceEntry.get("classification").get("framework").asText());
        assertThat(variant.get("startup").get("time_to_ready_ms").get("median").asDouble()).isPositive();

        // "No other file changed": every file of the checkout is as it was, but the manifest.
        Map<String, String> after = fingerprints(copy);
        List<String> changed = new ArrayList<>();
        before.forEach((file, hash) -> {
            if (!hash.equals(after.get(file))) {
                changed.add(file);
            }
        });
        assertThat(changed).containsExactly("benchmarks.json");
    }

    private static boolean skipped(Path root, Path dir) {
        return !dir.equals(root) && (NOT_COPIED.contains(dir.getFileName().toString())
                || NOT_COPIED_PATHS.contains(root.relativize(dir).toString()));
    }

    private static JsonNode entry(Path repo, String name) throws IOException {
        for (JsonNode entry : JSON.readTree(repo.resolve("benchmarks.json").toFile()).get("variants")) {
            if (entry.get("name").asText().equals(name)) {
                return entry;
            }
        }
        throw new AssertionError("no variant " + name + " in benchmarks.json");
    }

    record Step(int exit, String output) {
        String tail() {
            return output.length() > 6000 ? output.substring(output.length() - 6000) : output;
        }
    }

    /** Runs a command to its end (bounded), its output in a log file; killed with its children at the timeout. */
    private static Step run(Path dir, Path log, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile());
        builder.environment().remove("BENCH_SKIP_BUILD");
        Process process = builder.start();
        if (!process.waitFor(STEP_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            return new Step(-1, Files.readString(log) + "\n(killed after " + STEP_TIMEOUT.toMinutes() + " min)");
        }
        return new Step(process.exitValue(), Files.readString(log));
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                if (skipped(from, dir)) {
                    return FileVisitResult.SKIP_SUBTREE;
                }
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                if (!file.getFileName().toString().equals(".git")) { // a worktree's .git is a file
                    // Times kept: the copy's ./bench compares them with the harness jar's.
                    Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                }
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Every file outside build outputs, by relative path, with its content's hash. */
    private static Map<String, String> fingerprints(Path root) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return skipped(root, dir) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                hashes.put(root.relativize(file).toString(), sha256(file));
                return FileVisitResult.CONTINUE;
            }
        });
        return hashes;
    }

    private static String sha256(Path file) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
