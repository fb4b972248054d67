package dev.restbench.manifest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the runtime a variant names ({@code {"name": "jdk", "version": 25}}) on this machine, so the manifest never
 * holds a machine path. A JDK, in this order: the JDK running this code when its version matches; the environment
 * variables {@code JAVA_HOME_<v>_X64} / {@code JAVA_HOME_<v>_ARM64} (GitHub's setup-java), {@code JAVA<v>_HOME},
 * {@code JDK<v>_HOME}, {@code JAVA_HOME}; then the usual install folders ({@code /usr/lib/jvm/*}, {@code /usr/java/*},
 * {@code /opt/java/*}, {@code ~/.sdkman/candidates/java/*}, {@code ~/.jdks/*}, macOS's JavaVirtualMachines), by the
 * version in each one's {@code release} file. A Node.js: {@code NODE<v>_HOME}, then {@code node} on PATH, then nvm's
 * and n's folders, by {@code node --version}. Not found is a one-line {@link NotFound} that says where it looked.
 * A native executable ({@code {"name": "native"}}) needs nothing on the machine: it is always found, with no home
 * and no executable of its own (its command starts the artifact).
 */
public final class Runtimes {

    /**
     * A runtime on this machine. @param version its full version, e.g. "25.0.1" or "20.20.2"; home, executable and
     * version are null for a native executable, which needs no runtime
     */
    public record Found(Manifest.Runtime runtime, Path home, Path executable, String version) {

        /** As the checks before a run list it: "(25.0.1, /usr/lib/jvm/temurin-25)", or "(no runtime needed)". */
        public String describe() {
            return executable == null ? "(no runtime needed)" : "(" + version + ", " + home + ")";
        }
    }

    /** The runtime a variant needs is not on this machine. */
    public static final class NotFound extends RuntimeException {
        NotFound(String message) {
            super(message);
        }
    }

    private static final Pattern RELEASE_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"?([0-9][^\"\\s]*)\"?");
    private static final Pattern NODE_VERSION = Pattern.compile("^v?([0-9]+)\\.([0-9.]+)");

    private final Map<String, String> env;
    private final Path runningJavaHome;
    private final int runningJavaVersion;
    private final String runningJavaFullVersion;
    private final List<Path> jdkFolders;
    private final List<Path> nodeFolders;
    private final Function<Path, Optional<String>> nodeVersion;
    private final Map<Manifest.Runtime, Found> found = new LinkedHashMap<>();

    Runtimes(Map<String, String> env, Path runningJavaHome, int runningJavaVersion, String runningJavaFullVersion,
             List<Path> jdkFolders, List<Path> nodeFolders, Function<Path, Optional<String>> nodeVersion) {
        this.env = env;
        this.runningJavaHome = runningJavaHome;
        this.runningJavaVersion = runningJavaVersion;
        this.runningJavaFullVersion = runningJavaFullVersion;
        this.jdkFolders = jdkFolders;
        this.nodeFolders = nodeFolders;
        this.nodeVersion = nodeVersion;
    }

    /** This machine: this process's environment, its JDK and the usual install folders. */
    public static Runtimes ofThisMachine() {
        Path home = Path.of(System.getProperty("user.home"));
        List<Path> jdks = List.of(Path.of("/usr/lib/jvm"), Path.of("/usr/java"), Path.of("/opt/java"),
                home.resolve(".sdkman/candidates/java"), home.resolve(".jdks"),
                Path.of("/Library/Java/JavaVirtualMachines"));
        List<Path> nodes = List.of(home.resolve(".nvm/versions/node"), Path.of("/usr/local/n/versions/node"));
        return new Runtimes(System.getenv(), Path.of(System.getProperty("java.home")), Runtime.version().feature(),
                System.getProperty("java.version"), jdks, nodes, Runtimes::runNodeVersion);
    }

    /** @throws NotFound with where it looked */
    public synchronized Found find(Manifest.Runtime runtime) {
        Found hit = found.get(runtime);
        if (hit == null) {
            hit = switch (runtime.name()) {
                case Manifest.Runtime.JDK -> findJdk(runtime);
                case Manifest.Runtime.NODE -> findNode(runtime);
                case Manifest.Runtime.NATIVE -> new Found(runtime, null, null, null);
                default -> throw new NotFound("unknown runtime " + runtime.name());
            };
            found.put(runtime, hit);
        }
        return hit;
    }

    private Found findJdk(Manifest.Runtime runtime) {
        int v = runtime.version();
        if (runningJavaVersion == v) {
            return new Found(runtime, runningJavaHome, runningJavaHome.resolve("bin/java"), runningJavaFullVersion);
        }
        List<String> named = List.of("JAVA_HOME_" + v + "_X64", "JAVA_HOME_" + v + "_ARM64", "JAVA" + v + "_HOME",
                "JDK" + v + "_HOME");
        for (String variable : named) {
            String value = env.get(variable);
            if (value != null && !value.isBlank()) {
                Path home = Path.of(value);
                Optional<String> version = jdkVersion(home);
                if (version.isEmpty() || major(version.get()) != v) {
                    throw new NotFound("$" + variable + " is " + value + ", which is not a JDK " + v
                            + version.map(x -> " (its release file says " + x + ")").orElse(" (no bin/java and release file there)"));
                }
                return new Found(runtime, home, home.resolve("bin/java"), version.get());
            }
        }
        String javaHome = env.get("JAVA_HOME");
        if (javaHome != null && !javaHome.isBlank()) {
            Optional<Found> hit = jdkAt(runtime, Path.of(javaHome));
            if (hit.isPresent()) {
                return hit.get();
            }
        }
        for (Path folder : jdkFolders) {
            for (Path candidate : children(folder)) {
                Path home = Files.isDirectory(candidate.resolve("Contents/Home")) ? candidate.resolve("Contents/Home") : candidate;
                Optional<Found> hit = jdkAt(runtime, home);
                if (hit.isPresent()) {
                    return hit.get();
                }
            }
        }
        throw new NotFound("no JDK " + v + " on this machine: looked at the running JDK (" + runningJavaFullVersion
                + "), $" + String.join(", $", named) + ", $JAVA_HOME and " + String.join(", ",
                jdkFolders.stream().map(f -> f + "/*").toList()) + "; install one or set JAVA" + v + "_HOME");
    }

    private Optional<Found> jdkAt(Manifest.Runtime runtime, Path home) {
        return jdkVersion(home).filter(version -> major(version) == runtime.version())
                .map(version -> new Found(runtime, home, home.resolve("bin/java"), version));
    }

    /** The JAVA_VERSION of a JDK's release file, when bin/java is there too. */
    static Optional<String> jdkVersion(Path home) {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin/java")) || !Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            Matcher m = RELEASE_VERSION.matcher(Files.readString(release, StandardCharsets.ISO_8859_1));
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** "25.0.1" → 25, "1.8.0_402" → 8. */
    static int major(String version) {
        String[] parts = version.split("[.+_-]");
        try {
            int first = Integer.parseInt(parts[0]);
            return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private Found findNode(Manifest.Runtime runtime) {
        int v = runtime.version();
        String variable = "NODE" + v + "_HOME";
        String value = env.get(variable);
        if (value != null && !value.isBlank()) {
            return nodeAt(runtime, Path.of(value).resolve("bin/node")).orElseThrow(() -> new NotFound("$" + variable
                    + " is " + value + ", which has no bin/node of Node.js " + v));
        }
        List<Path> candidates = new ArrayList<>();
        for (String dir : env.getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty()) {
                candidates.add(Path.of(dir, "node"));
            }
        }
        for (Path folder : nodeFolders) {
            for (Path candidate : children(folder)) {
                candidates.add(candidate.resolve("bin/node"));
            }
        }
        for (Path candidate : candidates) {
            Optional<Found> hit = nodeAt(runtime, candidate);
            if (hit.isPresent()) {
                return hit.get();
            }
        }
        throw new NotFound("no Node.js " + v + " on this machine: looked at $" + variable + ", node on PATH and "
                + String.join(", ", nodeFolders.stream().map(f -> f + "/*").toList()) + "; install one or set " + variable);
    }

    private Optional<Found> nodeAt(Manifest.Runtime runtime, Path node) {
        if (!Files.isExecutable(node)) {
            return Optional.empty();
        }
        Path real;
        try {
            real = node.toRealPath();
        } catch (IOException e) {
            return Optional.empty();
        }
        return nodeVersion.apply(real).flatMap(version -> {
            Matcher m = NODE_VERSION.matcher(version.trim());
            if (!m.find() || Integer.parseInt(m.group(1)) != runtime.version()) {
                return Optional.empty();
            }
            return Optional.of(new Found(runtime, real.getParent().getParent(), real, m.group(1) + "." + m.group(2)));
        });
    }

    private static Optional<String> runNodeVersion(Path node) {
        try {
            Process process = new ProcessBuilder(node.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return process.waitFor(10, TimeUnit.SECONDS) && process.exitValue() == 0 ? Optional.of(out.trim())
                    : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** The folder's entries sorted by name (stable choice among several installs); none when it does not exist. */
    private static List<Path> children(Path folder) {
        List<Path> entries = new ArrayList<>();
        if (!Files.isDirectory(folder)) {
            return entries;
        }
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(folder)) {
            stream.forEach(entries::add);
        } catch (IOException e) {
            return entries;
        }
        entries.sort(null);
        return entries;
    }
}
