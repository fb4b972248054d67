package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where and with what a run was measured. The fingerprint hashes what makes two runs comparable: the machine (CPU
 * model and count, governor, OS, kernel, JDK, PostgreSQL, the calibration probe's speed class), the pinning and CPU source, and the method — the harness
 * version, each metric's definition version and the parts of the manifest that shape every measurement (the profile,
 * its scenarios in order with their loads, the dataset, the defaults, the error budget). Not the variants' own
 * entries: a variant's configuration is part of what is compared, like its code, and adding a variant must not start
 * new series for the others. Not the commit either. {@code services} lists the variants measured at a URL (not started
 * by the runner: their pinning is "external" and their CPU comes from their own metrics, {@code cpuSource}
 * "metrics"); empty for a normal run.
 */
record Environment(String fingerprint, String cpuModel, int cpuCount, String governor, String os, String kernel,
                   String jdk, String postgres, int harnessVersion, String methodHash, String manifestHash,
                   String profile, Map<String, String> pinning, String cpuSource, Map<String, String> services,
                   String speedClass) {

    /**
     * @param speedClass the calibration probe's speed class at the start of the run ({@link HostCheck}): a host of
     *                   another speed is another machine, whatever its CPU model string says
     */
    static Environment capture(Manifest parsed, Path manifest, RunSelection selection, String postgresVersion,
                               boolean externalPostgres, Map<String, String> services, String speedClass)
            throws IOException {
        String profile = selection.profileName();
        Manifest.Pinning pinning = parsed.pinning();
        String cpuModel = readCpuModel();
        int cpuCount = Runtime.getRuntime().availableProcessors();
        String governor = readFirstLine(Path.of("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
        String os = osName();
        String kernel = System.getProperty("os.version");
        // The services and Gatling run on the runner's own JDK (java.home), so this is theirs too.
        String jdk = System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version");
        String manifestHash = sha256(Files.readAllBytes(manifest));
        Map<String, String> pins = new LinkedHashMap<>();
        pins.put("service", services.isEmpty() ? pinning.service() : "external");
        pins.put("gatling", pinning.gatling());
        pins.put("postgres", externalPostgres ? "external" : pinning.postgres());
        String cpuSource = services.isEmpty() ? "proc" : "metrics";
        String methodHash = methodHash(parsed, selection);
        String fingerprint = sha256(String.join("\n", List.of(cpuModel, Integer.toString(cpuCount),
                String.valueOf(governor), os, kernel, jdk, postgresVersion, Integer.toString(parsed.harnessVersion()),
                methodHash, profile, pins.toString(), cpuSource, "speed " + speedClass))
                .getBytes(StandardCharsets.UTF_8));
        return new Environment(fingerprint, cpuModel, cpuCount, governor, os, kernel, jdk, postgresVersion,
                parsed.harnessVersion(), methodHash, manifestHash, profile, pins, cpuSource,
                java.util.Collections.unmodifiableMap(new LinkedHashMap<>(services)), speedClass);
    }

    /** The manifest parts every measurement of this selection depends on, hashed (records print all their fields). */
    private static String methodHash(Manifest manifest, RunSelection selection) {
        StringBuilder method = new StringBuilder();
        Manifest.Profile p = selection.profile();
        // Field by field, leaving descriptions out: rewording a description changes no measurement.
        method.append(List.of(p.trials(), p.windows(), p.windowSeconds(), p.warmup(), p.scale())).append('\n');
        method.append(selection.dataset()).append('\n');
        for (Manifest.Scenario scenario : selection.scenarios()) {
            method.append(scenario.name()).append(' ').append(scenario.simulation());
            new java.util.TreeMap<>(scenario.regimes()).forEach((regime, r) -> method.append(' ').append(regime)
                    .append(new java.util.TreeMap<>(r.load())));
            method.append('\n');
        }
        method.append(selection.regimes()).append('\n');
        method.append(manifest.defaults()).append('\n');
        method.append(manifest.errorBudget()).append('\n');
        manifest.metrics().forEach(m -> method.append(m.id()).append('@').append(m.version()).append('\n'));
        return sha256(method.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String readCpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException e) {
            // not Linux
        }
        return System.getProperty("os.arch");
    }

    private static String osName() {
        try {
            for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
                if (line.startsWith("PRETTY_NAME=")) {
                    return line.substring("PRETTY_NAME=".length()).replace("\"", "");
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return System.getProperty("os.name");
    }

    private static String readFirstLine(Path file) {
        try {
            return Files.readAllLines(file).stream().findFirst().map(String::trim).orElse(null);
        } catch (IOException e) {
            return null; // no cpufreq in most containers and VMs
        }
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
