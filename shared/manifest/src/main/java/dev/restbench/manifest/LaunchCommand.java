package dev.restbench.manifest;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A variant's launch command, from its {@code command} template: the one place placeholders are expanded, for the
 * runner, the contract tests and the generated compose file alike.
 *
 * <ul>
 *   <li>{@code {java}}: the java executable of the variant's JDK; {@code {node}}: the node of its Node.js; a native
 *   executable has neither (its command starts {@code {artifact}} itself)</li>
 *   <li>{@code {jvmOptions}} (a whole argument): the variant's JVM options, then the caller's extra ones</li>
 *   <li>{@code {artifact}}: the artifact's absolute path; {@code {port}}: the HTTP port</li>
 * </ul>
 */
public final class LaunchCommand {

    public static final String JAVA = "{java}";
    public static final String NODE = "{node}";
    public static final String JVM_OPTIONS = "{jvmOptions}";
    public static final String ARTIFACT = "{artifact}";
    public static final String PORT = "{port}";
    private static final Set<String> KNOWN = Set.of(JAVA, NODE, JVM_OPTIONS, ARTIFACT, PORT);
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{[A-Za-z]+}");

    /** What to start: argv and the environment the variant needs (the caller adds its database settings). */
    public record Launch(List<String> argv, Map<String, String> env) {
    }

    private LaunchCommand() {
    }

    /**
     * @param runtime          the variant's runtime as found on this machine ({@link Runtimes#find})
     * @param artifact         the artifact to start (absolute; may be a private copy of the manifest's)
     * @param extraJvmOptions  appended after the variant's own (later JVM flags win, e.g. a smaller heap in tests)
     */
    public static Launch of(Manifest.Variant variant, Runtimes.Found runtime, Path artifact, int port,
                            List<String> extraJvmOptions) {
        List<String> jvmOptions = new ArrayList<>(variant.jvmOptions());
        jvmOptions.addAll(extraJvmOptions);
        String executable = runtime.executable() == null ? null : runtime.executable().toString();
        List<String> argv = expand(variant.command(), executable, jvmOptions,
                artifact.toAbsolutePath().toString(), Integer.toString(port));
        Map<String, String> env = new LinkedHashMap<>(variant.env());
        env.put("PORT", Integer.toString(port));
        env.put("BIND_ADDRESS", "127.0.0.1");
        if (variant.runtime().isJdk()) {
            // What tools started by the variant (a launcher script, a forked JVM) take as their JDK.
            env.put("JAVA_HOME", runtime.home().toString());
        }
        return new Launch(argv, env);
    }

    /**
     * The template with every placeholder replaced. {@code executable} replaces {java} or {node}; in a container it
     * is the image's own "java"/"node", and {@code jvmOptions} may be a single shell word such as "$JAVA_OPTS". Null
     * for a native executable (whose command has neither placeholder: {@link #problems}).
     */
    public static List<String> expand(List<String> template, String executable, List<String> jvmOptions,
                                      String artifact, String port) {
        List<String> argv = new ArrayList<>();
        for (String arg : template) {
            if (arg.equals(JVM_OPTIONS)) {
                argv.addAll(jvmOptions);
            } else {
                String expanded = executable == null ? arg : arg.replace(JAVA, executable).replace(NODE, executable);
                argv.add(expanded.replace(ARTIFACT, artifact).replace(PORT, port));
            }
        }
        return argv;
    }

    /** Template problems the schema cannot see: unknown placeholders, and placeholders of another runtime. */
    static List<String> problems(Manifest manifest) {
        List<String> problems = new ArrayList<>();
        unknownPlaceholders(manifest.defaults().command(), "/defaults/command", problems);
        for (int i = 0; i < manifest.variants().size(); i++) {
            Manifest.Variant variant = manifest.variants().get(i);
            String at = "/variants/" + i;
            if (!variant.command().equals(manifest.defaults().command())) {
                unknownPlaceholders(variant.command(), at + "/command", problems);
            }
            Manifest.Runtime runtime = variant.runtime();
            String own = runtime.executableName() == null ? null : "{" + runtime.executableName() + "}";
            String hint = own == null ? " (its command starts " + ARTIFACT + " itself)" : " (give it a command with " + own + ")";
            for (String arg : variant.command()) {
                if (!runtime.isJdk() && (arg.contains(JAVA) || arg.contains(JVM_OPTIONS))) {
                    problems.add(at + ": its command " + variant.command() + " uses " + (arg.contains(JAVA) ? JAVA : JVM_OPTIONS)
                            + ", which needs a JDK, but its runtime is " + runtime + hint);
                    break;
                }
                if (!NODE.equals(own) && arg.contains(NODE)) {
                    problems.add(at + ": its command " + variant.command() + " uses " + NODE + ", but its runtime is "
                            + runtime + (runtime.isNative() ? hint : ""));
                    break;
                }
            }
        }
        return problems;
    }

    private static void unknownPlaceholders(List<String> command, String at, List<String> problems) {
        for (int j = 0; j < command.size(); j++) {
            String arg = command.get(j);
            Matcher m = PLACEHOLDER.matcher(arg);
            while (m.find()) {
                if (!KNOWN.contains(m.group())) {
                    problems.add(at + "/" + j + ": unknown placeholder " + m.group() + " (known: "
                            + String.join(", ", KNOWN.stream().sorted().toList()) + ")");
                }
            }
            if (arg.contains(JVM_OPTIONS) && !arg.equals(JVM_OPTIONS)) {
                problems.add(at + "/" + j + ": " + JVM_OPTIONS + " must be a whole argument (it expands to several)");
            }
        }
    }
}
