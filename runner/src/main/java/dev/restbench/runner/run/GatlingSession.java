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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One Gatling JVM loading a service for a whole cell (gatling/README.md, "session mode"): started with plain
 * {@code java -cp} (the classpath file the gatling module writes at package time), pinned to the load generator's CPU
 * set. It runs until the runner calls {@link #stop()}, which creates the stop file the simulation polls; Gatling then
 * stops gracefully and writes simulation.log (and its HTML report). While it runs, its console summary (one per
 * second) gives the live count of completed requests the warmup judges steadiness by.
 */
final class GatlingSession implements AutoCloseable {
    private static final String MAIN_CLASS = "io.gatling.app.Gatling";
    /** Gatling's console summary line: "> Global | total | ok | ko" (numbers may carry grouping commas). */
    private static final Pattern GLOBAL = Pattern.compile("^> Global\\s*\\|\\s*([\\d,]+)\\s*\\|\\s*([\\d,]+)\\s*\\|\\s*([\\d,]+)");

    /** Completed requests (cumulative) as Gatling's console last reported them, and when the line arrived. */
    record Count(long requests, long failed, long nanoTime) {
    }

    /**
     * @param exitCode  Gatling's exit code: 0 ok, anything else a crash
     * @param reportDir the simulation's results directory (simulation.log, index.html), null if none
     * @param lastLines the first error line of the console, else its last lines
     */
    record Outcome(int exitCode, Path reportDir, String lastLines) {
    }

    private final Process process;
    private final Path stopFile;
    private final Path pauseFile;
    private final Path resultsFolder;
    private final CountDownLatch started = new CountDownLatch(1);
    private final Thread reader;
    private volatile Count count = new Count(0, 0, System.nanoTime());
    private volatile String firstError;
    private final List<String> tail = new ArrayList<>();

    /** Gatling's clock as the runner keeps it (read just before the launch), and Gatling's start on it. */
    private final GatlingClock clock;
    private final long launchedMillis;
    private volatile long seenRunningMillis = Long.MAX_VALUE;
    /** How far the wall clock was stepped between the launch and the moment Gatling said it started. */
    private volatile long stepUntilSeenMillis;

    private GatlingSession(Process process, Path stopFile, Path pauseFile, Path resultsFolder, String simulation,
                           Path log, GatlingClock clock, long launchedMillis) {
        this.clock = clock;
        this.launchedMillis = launchedMillis;
        this.process = process;
        this.stopFile = stopFile;
        this.pauseFile = pauseFile;
        this.resultsFolder = resultsFolder;
        this.reader = new Thread(() -> readConsole(simulation, log), "gatling-console");
        this.reader.setDaemon(true);
        this.reader.start();
    }

    static Path classpathFile(Path root) {
        return root.resolve("gatling/target/gatling-classpath.txt");
    }

    /**
     * @param properties  the simulation's -D properties (baseUrl, dialect, regime, load, duration = upper bound …)
     * @param workDir     Gatling's results folder and the stop file live here
     */
    static GatlingSession start(Path root, String cpuSet, String simulation, Map<String, String> properties,
                                Path workDir, Path log) throws IOException {
        return start(root, cpuSet, simulation, properties, workDir, log, false);
    }

    /**
     * @param pausable give the simulation a pause file ({@link #pause()}): only when the warmup has cycles, since the
     *                 simulation then checks it before every request (the load generator's hot path)
     */
    static GatlingSession start(Path root, String cpuSet, String simulation, Map<String, String> properties,
                                Path workDir, Path log, boolean pausable) throws IOException {
        Path classpathFile = classpathFile(root);
        if (!Files.isRegularFile(classpathFile)) {
            throw new IOException(classpathFile + " is missing: build the gatling module (./mvnw -B -q -pl gatling -am package -DskipTests)");
        }
        String classpath = Files.readString(classpathFile).trim();
        Files.createDirectories(workDir);
        Files.createDirectories(log.getParent());
        Path stopFile = workDir.resolve("stop");
        Files.deleteIfExists(stopFile);
        Path pauseFile = workDir.resolve("pause");
        Files.deleteIfExists(pauseFile);
        Path resultsFolder = workDir.resolve("results");
        Files.createDirectories(resultsFolder);
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
                "-Djava.util.prefs.userRoot=" + root.resolve("gatling/target/java-prefs"),
                // A console summary every second, global counts only: the warmup's live throughput.
                "-Dgatling.data.console.writePeriod=1", "-Dgatling.data.console.light=true"));
        Map<String, String> props = new LinkedHashMap<>(properties);
        props.put("stopFile", stopFile.toString());
        if (pausable) {
            props.put("pauseFile", pauseFile.toString());
        }
        props.forEach((k, v) -> argv.add("-D" + k + "=" + v));
        argv.addAll(List.of("-cp", classpath, MAIN_CLASS, "--simulation", simulation,
                "--results-folder", resultsFolder.toAbsolutePath().toString()));
        // The reference of the clock the windows are cut on, read as Gatling will read its own (GatlingClock).
        GatlingClock clock = GatlingClock.now();
        long launched = clock.nowMillis();
        Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        ChildProcesses.register(process);
        return new GatlingSession(process, stopFile, pausable ? pauseFile : null, resultsFolder, simulation, log,
                clock, launched);
    }

    /**
     * Pauses the load (the simulation's controller reads the pause file every 100 ms): closed-model users wait,
     * open-model arrivals send nothing, until {@link #resume()}.
     */
    void pause() throws IOException {
        if (pauseFile == null) {
            throw new IllegalStateException("this Gatling session was started without a pause file");
        }
        Files.writeString(pauseFile, "");
    }

    void resume() throws IOException {
        if (pauseFile != null) {
            Files.deleteIfExists(pauseFile);
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits until Gatling says the injection started; false on timeout or if Gatling exited first. */
    boolean awaitStarted(long timeoutSeconds) throws InterruptedException {
        return started.await(timeoutSeconds, TimeUnit.SECONDS) && process.isAlive();
    }

    Count count() {
        return count;
    }

    /** The clock Gatling stamps its requests with, as the runner keeps it: what the windows' edges are read on. */
    GatlingClock clock() {
        return clock;
    }

    /**
     * Why Gatling's clock may not be {@link #clock()}, or null: the wall clock was stepped between the launch and
     * Gatling's start, so Gatling read its own reference on one side of the step or the other and the windows would be
     * cut off by up to the step. Known as soon as Gatling has started, before the start spends its warmup.
     */
    String clockSteppedWhileStarting() {
        return GatlingClock.steppedWhileStarting(stepUntilSeenMillis);
    }

    /**
     * Why Gatling's requests cannot be cut on {@link #clock()}, or null: its run record's start, on its own clock,
     * against the span between the launch and the moment its start was seen ({@link GatlingClock#mismatch}).
     */
    String clockMismatch(long gatlingRunStartMillis) {
        return GatlingClock.mismatch(gatlingRunStartMillis, launchedMillis, seenRunningMillis);
    }

    /** Ends the load: the controller scenario sees the file within 100 ms and stops Gatling gracefully. */
    void stop() throws IOException {
        Files.writeString(stopFile, "stop\n");
    }

    /** Waits for Gatling to exit (killing it after the timeout) and says what it left. */
    Outcome awaitExit(long timeoutSeconds) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            ChildProcesses.terminate(process, 5);
        }
        reader.join(TimeUnit.SECONDS.toMillis(5));
        int exit = process.exitValue();
        String error = firstError;
        String last;
        synchronized (tail) {
            last = String.join(" | ", tail).strip();
        }
        return new Outcome(exit, findReportDir(resultsFolder), error != null ? error : last);
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            ChildProcesses.terminate(process, 5);
        }
        ChildProcesses.unregister(process);
    }

    private void readConsole(String simulation, Path log) {
        try (BufferedReader console = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             BufferedWriter out = Files.newBufferedWriter(log)) {
            String line;
            while ((line = console.readLine()) != null) {
                out.write(line);
                out.newLine();
                if (started.getCount() > 0 && line.contains("Simulation " + simulation + " started")) {
                    seenRunningMillis = clock.nowMillis();
                    stepUntilSeenMillis = clock.wallStepMillis();
                    started.countDown();
                }
                Matcher global = GLOBAL.matcher(line);
                if (global.find()) {
                    count = new Count(number(global.group(1)), number(global.group(3)), System.nanoTime());
                }
                // The exception line says why ("ClassNotFoundException: …"); "[ERROR] … Run crashed" only that.
                if (line.contains("Exception") && (firstError == null || !firstError.contains("Exception"))) {
                    firstError = line.strip();
                } else if (firstError == null && line.contains("[ERROR]")) {
                    firstError = line.strip();
                }
                synchronized (tail) {
                    tail.add(line);
                    if (tail.size() > 5) {
                        tail.remove(0);
                    }
                }
            }
        } catch (IOException e) {
            firstError = firstError != null ? firstError : "cannot read Gatling's console: " + e.getMessage();
        } finally {
            started.countDown(); // never leave a waiter hanging on a Gatling that died before starting
        }
    }

    private static long number(String digits) {
        return Long.parseLong(digits.replace(",", ""));
    }

    /** Gatling writes into {@code <results-folder>/<simulation>-<timestamp>/}: the newest such directory. */
    private static Path findReportDir(Path resultsFolder) throws IOException {
        if (!Files.isDirectory(resultsFolder)) {
            return null;
        }
        try (Stream<Path> dirs = Files.list(resultsFolder)) {
            return dirs.filter(Files::isDirectory)
                    .max((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .orElse(null);
        }
    }
}
