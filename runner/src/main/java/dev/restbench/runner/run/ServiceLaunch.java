package dev.restbench.runner.run;

import dev.restbench.manifest.Manifest;
import dev.restbench.manifest.Runtimes;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the runner starts a variant: the manifest's command template expanded by the shared
 * {@link dev.restbench.manifest.LaunchCommand} (the same the contract tests and the compose file use) with the
 * variant's runtime found on this machine, plus the cell's database, a port and the service CPU set.
 */
final class ServiceLaunch {
    /**
     * Found once per run; RunCommand has checked every selected variant's runtime before the run began, and a variant
     * without its runtime (--missing-runtimes record) is never launched.
     */
    private static final Runtimes RUNTIMES = Runtimes.ofThisMachine();

    private ServiceLaunch() {
    }

    static ServiceProcess.Launch of(Manifest manifest, Manifest.Variant variant, Path artifact, String jdbcUrl,
                                    String dbUser, String dbPassword) throws IOException {
        return of(manifest, variant, artifact, jdbcUrl, dbUser, dbPassword, List.of());
    }

    /** @param extraJvmOptions after the variant's own (the AOT cache flags of a variant with aotCache) */
    static ServiceProcess.Launch of(Manifest manifest, Manifest.Variant variant, Path artifact, String jdbcUrl,
                                    String dbUser, String dbPassword, List<String> extraJvmOptions) throws IOException {
        int port = variant.port() == null || variant.port() == 0 ? ServiceProcess.freePort() : variant.port();
        dev.restbench.manifest.LaunchCommand.Launch launch = dev.restbench.manifest.LaunchCommand.of(variant,
                RUNTIMES.find(variant.runtime()), artifact, port, extraJvmOptions);
        Map<String, String> env = new LinkedHashMap<>(launch.env());
        env.put("DB_URL", jdbcUrl);
        env.put("DB_USER", dbUser);
        env.put("DB_PASSWORD", dbPassword);
        String cpuSet = variant.cpuSet() != null ? variant.cpuSet() : manifest.pinning().service();
        return new ServiceProcess.Launch(launch.argv(), env, port, cpuSet, variant.healthPath(), variant.metricsPath());
    }

    /** The variant JDK's jcmd (the profiler's remote control), or null when the variant does not run on a JDK. */
    static Path jcmd(Manifest.Variant variant) {
        if (!variant.runtime().isJdk()) {
            return null;
        }
        Path jcmd = RUNTIMES.find(variant.runtime()).home().resolve("bin").resolve("jcmd");
        return java.nio.file.Files.isExecutable(jcmd) ? jcmd : null;
    }
}
