package dev.restbench.runner;

/** Bad command-line input: printed with the command's help, exit code 2. */
public final class UsageException extends RuntimeException {
    public UsageException(String message) {
        super(message);
    }
}
