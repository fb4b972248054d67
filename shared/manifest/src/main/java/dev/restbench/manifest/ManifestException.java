package dev.restbench.manifest;

import java.util.List;

/** An invalid manifest: every problem with the JSON path (JSON Pointer) where it is. */
public final class ManifestException extends RuntimeException {
    private final List<String> problems;

    public ManifestException(String source, List<String> problems) {
        super("invalid manifest " + source + ":\n  " + String.join("\n  ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each entry: "{@code <json pointer>: <problem>}". */
    public List<String> problems() {
        return problems;
    }
}
