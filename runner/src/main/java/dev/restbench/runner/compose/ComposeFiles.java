package dev.restbench.runner.compose;

import dev.restbench.manifest.LaunchCommand;
import dev.restbench.manifest.Manifest;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The parts of the compose stack that come from benchmarks.json: one compose service per variant (between the
 * markers in compose/compose.yaml; the rest of that file is written by hand) and Prometheus's scrape jobs
 * (compose/prometheus/prometheus.yml, whole). Both files are checked in; {@code ./bench compose} rewrites them and
 * a test fails while they differ from what this class renders.
 *
 * <p>A service builds {@code compose/variant.Dockerfile} (the variant's own {@code Dockerfile} when its folder has
 * one, e.g. a Node app or a native executable) with build args VARIANT and RUNTIME_VERSION (none for a native
 * executable), and starts the manifest's command with the image's java or node (a native executable is its own
 * program), {@code $JAVA_OPTS} for the JVM options (default: the variant's), the artifact under /app and port 8080.
 * Host ports are 8081, 8082, … in manifest order.
 */
public final class ComposeFiles {
    public static final String COMPOSE = "compose/compose.yaml";
    public static final String PROMETHEUS = "compose/prometheus/prometheus.yml";
    static final String BEGIN = "  # >>> variants: written by ./bench compose from benchmarks.json; do not edit by hand";
    static final String END = "  # <<< variants";
    static final String GENERIC_DOCKERFILE = "compose/variant.Dockerfile";
    static final int FIRST_HOST_PORT = 8081;

    private ComposeFiles() {
    }

    /** File (relative to the root) → its content as this manifest makes it. */
    public static Map<String, String> render(Path root, Manifest manifest) throws java.io.IOException {
        Map<String, String> files = new LinkedHashMap<>();
        String compose = Files.readString(root.resolve(COMPOSE));
        int begin = compose.indexOf(BEGIN + "\n");
        int end = compose.indexOf(END + "\n");
        if (begin < 0 || end < begin) {
            throw new IllegalStateException(COMPOSE + " lacks the lines '" + BEGIN.strip() + "' and '" + END.strip()
                    + "' around the variant services");
        }
        files.put(COMPOSE, compose.substring(0, begin + BEGIN.length() + 1) + services(root, manifest)
                + compose.substring(end));
        files.put(PROMETHEUS, prometheus(manifest));
        return files;
    }

    static String services(Path root, Manifest manifest) {
        StringBuilder out = new StringBuilder();
        int port = FIRST_HOST_PORT;
        for (Manifest.Variant variant : manifest.variants()) {
            String dockerfile = Files.isRegularFile(root.resolve(variant.folder()).resolve("Dockerfile"))
                    ? variant.folder() + "/Dockerfile" : GENERIC_DOCKERFILE;
            out.append("  ").append(variant.name()).append(":\n");
            out.append("    <<: *variant\n");
            out.append("    profiles: [services, ").append(variant.name()).append("]\n");
            out.append("    build:\n      context: ..\n      dockerfile: ").append(dockerfile).append('\n');
            out.append("      args:\n        VARIANT: ").append(variant.name()).append('\n');
            if (!variant.runtime().isNative()) {
                out.append("        RUNTIME_VERSION: \"").append(variant.runtime().version()).append("\"\n");
            }
            Map<String, String> env = new LinkedHashMap<>();
            variant.env().forEach((k, v) -> {
                if (!v.equals(manifest.defaults().env().get(k))) {
                    env.put(k, quote(v.replace("$", "$$"))); // the defaults are in x-variant, overridable there
                }
            });
            if (variant.runtime().isJdk()) {
                env.put("JAVA_OPTS", "\"${JAVA_OPTS:-" + String.join(" ", variant.jvmOptions()) + "}\"");
            }
            out.append("    environment:\n      <<: *variant-env\n");
            env.forEach((k, v) -> out.append("      ").append(k).append(": ").append(v).append('\n'));
            out.append("    entrypoint: [\"sh\", \"-c\", ").append(quote("exec " + shellCommand(variant))).append("]\n");
            if (!variant.healthPath().equals("/actuator/health")) {
                out.append("    healthcheck:\n      <<: *variant-health\n      test: [\"CMD\", \"bash\", \"-c\", ")
                        .append(quote(healthProbe(variant.healthPath()))).append("]\n");
            }
            out.append("    ports:\n      - \"127.0.0.1:").append(port++).append(":8080\"\n\n");
        }
        return out.toString();
    }

    /** The manifest's command inside the image: $JAVA_OPTS left for the shell to split ($$ escapes compose's $). */
    static String shellCommand(Manifest.Variant variant) {
        String artifact = "/app/" + Path.of(variant.artifact()).getFileName();
        List<String> argv = LaunchCommand.expand(variant.command(), variant.runtime().executableName(),
                List.of("\u0000JAVA_OPTS"), artifact, "8080");
        List<String> words = new ArrayList<>();
        for (String arg : argv) {
            words.add(arg.equals("\u0000JAVA_OPTS") ? "$$JAVA_OPTS" : shellQuote(arg));
        }
        return String.join(" ", words);
    }

    /** As x-variant's probe, at the variant's own health path: the images have bash but not always curl. */
    private static String healthProbe(String path) {
        return "exec 3<>/dev/tcp/127.0.0.1/8080 && printf 'GET " + path + " HTTP/1.0\\r\\n\\r\\n' >&3 && grep -q UP <&3";
    }

    static String prometheus(Manifest manifest) {
        StringBuilder out = new StringBuilder("""
                # Written by ./bench compose from benchmarks.json (one job per variant); do not edit by hand.
                # Scrapes every variant once a second, like the runner does during a measured window.
                global:
                  scrape_interval: 1s
                  evaluation_interval: 5s
                scrape_configs:
                """);
        for (Manifest.Variant variant : manifest.variants()) {
            out.append("  - job_name: ").append(variant.name()).append('\n');
            out.append("    metrics_path: ").append(variant.metricsPath()).append('\n');
            out.append("    static_configs: [{targets: [\"").append(variant.name()).append(":8080\"]}]\n");
        }
        return out.toString();
    }

    private static String shellQuote(String word) {
        return word.matches("[A-Za-z0-9_./:=@%+,-]+") ? word : "'" + word.replace("'", "'\\''") + "'";
    }

    /** A YAML double-quoted scalar. */
    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
