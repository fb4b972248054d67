package dev.restbench.contract;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The property-based fuzzer, schemathesis from PyPI, in a private virtual environment under {@code target/fuzz/venv}
 * that the test run creates itself on first use: a fresh machine needs only Python 3.11+ with pip (and PyPI). The
 * versions are pinned in {@code fuzz/requirements.txt} (test resources, every transitive package); the venv is
 * rebuilt when that file changes.
 */
final class Schemathesis {

    static final Path HOME = Path.of("target", "fuzz").toAbsolutePath();
    private static final Path VENV = HOME.resolve("venv");
    /** Written last by a complete install: the requirements it was built from. */
    private static final Path INSTALLED = VENV.resolve("installed-requirements.txt");
    private static final Duration INSTALL_TIMEOUT = Duration.ofMinutes(10);

    private static Path executable;
    private static RuntimeException installFailure;

    private Schemathesis() {
    }

    /** The outcome of one run: its exit code and its whole console output. */
    record Run(int exitCode, String output, Duration wallTime) {
    }

    /** The {@code schemathesis} command of the venv, installed now if it is missing or out of date. */
    private static synchronized Path executable() {
        if (installFailure != null) {
            throw new IllegalStateException("schemathesis could not be installed earlier", installFailure);
        }
        if (executable == null) {
            try {
                executable = install();
            } catch (RuntimeException e) {
                installFailure = e;
                throw e;
            }
        }
        return executable;
    }

    private static Path install() {
        String requirements = resource("fuzz/requirements.txt");
        Path command = VENV.resolve("bin").resolve("schemathesis");
        try {
            if (Files.isExecutable(command) && Files.isRegularFile(INSTALLED)
                    && Files.readString(INSTALLED).equals(requirements)) {
                return command;
            }
            deleteRecursively(VENV);
            Files.createDirectories(HOME);
            Path requirementsFile = HOME.resolve("requirements.txt");
            Files.writeString(requirementsFile, requirements);
            String python = python();
            Path log = HOME.resolve("install.log");
            Files.deleteIfExists(log);
            long started = System.nanoTime();
            if (exec(List.of(python, "-m", "venv", VENV.toString()), log) != 0) {
                // Debian/Ubuntu without python3-venv have no ensurepip: a venv without pip, filled by the outer pip.
                deleteRecursively(VENV);
                check(exec(List.of(python, "-m", "venv", "--without-pip", VENV.toString()), log), "venv", log);
                check(exec(List.of(python, "-m", "pip", "--python", VENV.resolve("bin/python").toString(),
                        "install", "--disable-pip-version-check", "--no-input", "-r", requirementsFile.toString()),
                        log), "pip install", log);
            } else {
                check(exec(List.of(VENV.resolve("bin/python").toString(), "-m", "pip", "install",
                        "--disable-pip-version-check", "--no-input", "-r", requirementsFile.toString()), log),
                        "pip install", log);
            }
            if (!Files.isExecutable(command)) {
                throw new IllegalStateException("pip installed no " + command + "; see " + log);
            }
            Files.writeString(INSTALLED, requirements);
            System.out.printf("schemathesis installed into %s in %d s%n", VENV,
                    Duration.ofNanos(System.nanoTime() - started).toSeconds());
            return command;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install schemathesis into " + VENV, e);
        }
    }

    /**
     * A Python of at least 3.11 (schemathesis 4 requires it): {@code $RESTBENCH_PYTHON}, else the first of
     * python3.13 … python3 on the PATH that is new enough. Missing Python fails the run, it does not skip the fuzzer.
     */
    private static String python() {
        List<String> candidates = new ArrayList<>();
        String configured = System.getenv("RESTBENCH_PYTHON");
        if (configured != null && !configured.isBlank()) {
            candidates.add(configured);
        }
        candidates.addAll(List.of("python3.13", "python3.12", "python3.11", "python3"));
        List<String> tried = new ArrayList<>();
        for (String candidate : candidates) {
            try {
                Process process = new ProcessBuilder(candidate, "-c",
                        "import sys; print(sys.version_info >= (3, 11))").redirectErrorStream(true).start();
                String answer = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
                if (process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 && answer.equals("True")) {
                    return candidate;
                }
                tried.add(candidate + " (" + answer + ")");
            } catch (IOException e) {
                tried.add(candidate + " (not found)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("the fuzzer needs Python >= 3.11 with pip (or RESTBENCH_PYTHON); tried "
                + String.join(", ", tried));
    }

    /**
     * Runs {@code schemathesis <arguments>} in {@code workDir}, its output into {@code log}, killed after
     * {@code timeout} (a hang guard: the test fails then).
     */
    static Run run(List<String> arguments, Path workDir, Path log, Duration timeout) {
        List<String> command = new ArrayList<>();
        command.add(executable().toString());
        command.addAll(arguments);
        try {
            Files.createDirectories(workDir);
            ProcessBuilder builder = new ProcessBuilder(command).directory(workDir.toFile())
                    .redirectErrorStream(true).redirectOutput(log.toFile());
            builder.environment().put("NO_COLOR", "1");
            builder.environment().put("PYTHONIOENCODING", "utf-8");
            // Nothing outside the venv: no user site packages, no proxy settings meant for other tools.
            builder.environment().put("PYTHONNOUSERSITE", "1");
            long started = System.nanoTime();
            Process process = builder.start();
            if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("schemathesis did not finish within " + timeout.toSeconds() + " s; see "
                        + log);
            }
            Duration wallTime = Duration.ofNanos(System.nanoTime() - started);
            return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8), wallTime);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static int exec(List<String> command, Path log) {
        try {
            Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardCharsets.UTF_8,
                    java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!process.waitFor(INSTALL_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " took longer than "
                        + INSTALL_TIMEOUT.toMinutes() + " min; see " + log);
            }
            return process.exitValue();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void check(int exitCode, String step, Path log) {
        if (exitCode != 0) {
            String tail;
            try {
                List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
                tail = String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
            } catch (IOException e) {
                tail = "(cannot read " + log + ")";
            }
            throw new IllegalStateException("installing schemathesis failed at " + step + " (exit " + exitCode
                    + "); the fuzzer needs Python >= 3.11 with pip and access to PyPI. " + log + ":\n" + tail);
        }
    }

    static String resource(String name) {
        try (InputStream in = Schemathesis.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("no resource " + name + " on the test classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var paths = Files.walk(dir)) {
            for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
