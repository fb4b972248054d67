package dev.restbench.runner.run;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Starts one Gatling simulation in its own JVM with plain {@code java -cp} (the classpath file the gatling module
 * writes at package time; see gatling/README.md), pinned to the load generator's CPU set. Gatling's console tells
 * when the injection starts and when the simulation completes: those two lines are the edges of the measured
 * window, reported to a {@link WindowListener}.
 */
final class GatlingLauncher {
    private static final String MAIN_CLASS = "io.gatling.app.Gatling";

    private final Path root;
    private final String cpuSet;

    GatlingLauncher(Path root, String cpuSet) {
        this.root = root;
        this.cpuSet = cpuSet;
    }

    /** Called from the console reader thread at the window's edges. */
    interface WindowListener {
        void started();

        void completed();
    }

    /**
     * @param exitCode         Gatling's exit code: 0 ok, 2 assertions failed, anything else a crash
     * @param reportDir        the simulation's results directory (simulation.log, index.html), null if none
     * @param assertionLines   the console's assertion lines that are false
     * @param sawWindow        whether both window edges were seen on the console
 * @param lastLines        the first error line of the console, else its last lines
     */
    record Outcome(int exitCode, Path reportDir, List<String> assertionLines, boolean sawWindow, String lastLines) {
    }

    Path classpathFile() {
        return root.resolve("gatling/target/gatling-classpath.txt");
    }

    Outcome run(String simulation, Map<String, String> properties, boolean reports, Path resultsFolder, Path log,
                WindowListener listener) throws IOException, InterruptedException {
        Path classpathFile = classpathFile();
        if (!Files.isRegularFile(classpathFile)) {
            throw new IOException(classpathFile + " is missing: build the gatling module (./mvnw -B -q -pl gatling -am package -DskipTests)");
        }
        String classpath = Files.readString(classpathFile).trim();
        List<String> argv = new ArrayList<>();
        if (cpuSet != null) {
            argv.addAll(List.of("taskset", "-c", cpuSet));
        }
        argv.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // The gatling-maven-plugin's default JVM options, including the add-opens Gatling needs on JDK 17+.
        argv.addAll(List.of("-Xmx1g", "-XX:+HeapDumpOnOutOfMemoryError", "-XX:+UseG1GC",
                "-XX:+ParallelRefProcEnabled", "-XX:MaxInlineLevel=20", "-XX:MaxTrivialSize=12",
                "--add-opens=java.base/java.lang=ALL-UNNAMED",
                // The version check writes preferences; keep them out of the user's home.
                "-Djava.util.prefs.userRoot=" + root.resolve("gatling/target/java-prefs")));
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.forEach((k, v) -> argv.add("-D" + k + "=" + v));
        argv.addAll(List.of("-cp", classpath, MAIN_CLASS,
                "--simulation", simulation,
                "--results-folder", resultsFolder.toAbsolutePath().toString()));
        if (!reports) {
            argv.add("--no-reports");
        }
        Files.createDirectories(resultsFolder);
        Files.createDirectories(log.getParent());
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        ChildProcesses.register(process);
        List<String> assertions = new ArrayList<>();
        List<String> tail = new ArrayList<>();
        String firstError = null;
        boolean started = false;
        boolean completed = false;
        try (BufferedReader console = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = Files.newBufferedWriter(log)) {
            String line;
            while ((line = console.readLine()) != null) {
                out.write(line);
                out.newLine();
                if (!started && line.contains("Simulation " + simulation + " started")) {
                    started = true;
                    listener.started();
                } else if (started && !completed && (line.startsWith("Parsing log file")
                        || line.contains("Simulation " + simulation + " completed"))) {
                    // Gatling 3.15 prints no "completed" line: parsing the log is the first thing after the run.
                    completed = true;
                    listener.completed();
                }
                if (line.contains(": false") && !line.isBlank()) {
                    assertions.add(line.strip());
                }
                // The exception line says why ("ClassNotFoundException: …"); "[ERROR] … Run crashed" only that.
                if (line.contains("Exception") && (firstError == null || !firstError.contains("Exception"))) {
                    firstError = line.strip();
                } else if (firstError == null && line.contains("[ERROR]")) {
                    firstError = line.strip();
                }
                tail.add(line);
                if (tail.size() > 5) {
                    tail.remove(0);
                }
            }
            int exit = process.waitFor();
            if (started && !completed) {
                listener.completed(); // close the window even if the console line changed between versions
            }
            return new Outcome(exit, findReportDir(resultsFolder), assertions, started && completed,
                    firstError != null ? firstError : String.join(" | ", tail).strip());
        } finally {
            if (process.isAlive()) {
                ChildProcesses.terminate(process, 5);
            }
            ChildProcesses.unregister(process);
        }
    }

    /** Gatling writes into {@code <results-folder>/<simulation>-<timestamp>/}: the newest such directory. */
    private static Path findReportDir(Path resultsFolder) throws IOException {
        try (Stream<Path> dirs = Files.list(resultsFolder)) {
            return dirs.filter(Files::isDirectory)
                    .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .orElse(null);
        }
    }
}
