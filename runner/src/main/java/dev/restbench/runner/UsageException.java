package dev.restbench.runner;

/**
 * Bad command-line input that only the command can see (an unknown profile or variant, options that do not go
 * together): printed with the command's usage, exit code 2, as picocli's own parse errors.
 */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
