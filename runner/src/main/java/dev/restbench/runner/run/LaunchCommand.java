package dev.restbench.runner.run;

import dev.restbench.runner.manifest.Manifest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** How to start a variant: the manifest's command template, defaults merged with the variant's overrides. */
final class LaunchCommand {

    private LaunchCommand() {
    }

    static ServiceProcess.Launch of(Manifest manifest, Manifest.Variant variant, Path artifact, String jdbcUrl,
                                    String dbUser, String dbPassword) throws IOException {
        Manifest.Defaults defaults = manifest.defaults();
        int port = variant.port() == null || variant.port() == 0 ? ServiceProcess.freePort() : variant.port();
        List<String> jvmOptions = variant.jvmOptions() != null ? variant.jvmOptions() : defaults.jvmOptions();
        List<String> template = variant.command() != null ? variant.command() : defaults.command();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>();
        for (String arg : template) {
            if (arg.equals("{jvmOptions}")) {
                command.addAll(jvmOptions);
            } else {
                command.add(arg.replace("{artifact}", artifact.toString()).replace("{port}", Integer.toString(port))
                        .replace("{java}", java));
            }
        }
        if (command.get(0).equals("java")) {
            // The JDK the runner runs on, not whatever `java` is first on PATH: the environment record says which.
            command.set(0, java);
        }
        Map<String, String> env = new LinkedHashMap<>(defaults.env());
        if (variant.env() != null) {
            env.putAll(variant.env());
        }
        env.put("PORT", Integer.toString(port));
        env.put("BIND_ADDRESS", "127.0.0.1");
        env.put("DB_URL", jdbcUrl);
        env.put("DB_USER", dbUser);
        env.put("DB_PASSWORD", dbPassword);
        String cpuSet = variant.cpuSet() != null ? variant.cpuSet() : manifest.pinning().service();
        return new ServiceProcess.Launch(command, env, port, cpuSet, healthPath(manifest, variant),
                metricsPath(manifest, variant));
    }

    static String healthPath(Manifest manifest, Manifest.Variant variant) {
        return variant.healthPath() != null ? variant.healthPath() : manifest.defaults().healthPath();
    }

    static String metricsPath(Manifest manifest, Manifest.Variant variant) {
        return variant.metricsPath() != null ? variant.metricsPath() : manifest.defaults().metricsPath();
    }
}
