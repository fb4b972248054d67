package dev.restbench.runner;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Minimal `--name value` / `--name=value` / `--flag` parser. Unknown options are usage errors, so a typo
 * never silently runs the wrong benchmark.
 */
public final class Options {
    private final Map<String, List<String>> values = new LinkedHashMap<>();
    private final List<String> positional = new ArrayList<>();

    private Options() {
    }

    /**
     * @param valued options that take a value (without the leading dashes)
     * @param flags  options that take none
     */
    public static Options parse(List<String> args, Set<String> valued, Set<String> flags) {
        Options options = new Options();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                options.positional.add(arg);
                continue;
            }
            String name = arg.substring(2);
            String value = null;
            int eq = name.indexOf('=');
            if (eq >= 0) {
                value = name.substring(eq + 1);
                name = name.substring(0, eq);
            }
            if (flags.contains(name)) {
                if (value != null) {
                    throw new UsageException("--" + name + " takes no value");
                }
                options.values.computeIfAbsent(name, k -> new ArrayList<>()).add("true");
            } else if (valued.contains(name)) {
                if (value == null) {
                    if (i + 1 >= args.size()) {
                        throw new UsageException("--" + name + " needs a value");
                    }
                    value = args.get(++i);
                }
                options.values.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
            } else {
                throw new UsageException("unknown option --" + name);
            }
        }
        return options;
    }

    /** The option's value; the last one when it is given more than once. */
    public Optional<String> value(String name) {
        List<String> given = values.get(name);
        return given == null ? Optional.empty() : Optional.of(given.get(given.size() - 1));
    }

    /** Every value of a repeatable option (e.g. --where a=b --where c=d), in order. */
    public List<String> values(String name) {
        return values.getOrDefault(name, List.of());
    }

    public boolean flag(String name) {
        return values.containsKey(name);
    }

    public List<String> positional() {
        return positional;
    }
}
