package dev.restbench.runner;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/** {@code --root DIR}, mixed into the commands that read the checkout (its manifest, variants, site). */
public final class RootOption {

    @Option(names = "--root", paramLabel = "<dir>", defaultValue = "${sys:restbench.root:-.}",
            description = "repository root (default: the checkout ./bench lives in)")
    private Path root;

    /** The root as an absolute, normalized path. */
    public Path path() {
        return root.toAbsolutePath().normalize();
    }
}
