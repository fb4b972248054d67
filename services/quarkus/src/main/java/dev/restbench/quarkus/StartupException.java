package dev.restbench.quarkus;

/** The service cannot start; the message says why in terms an operator can act on. */
public final class StartupException extends RuntimeException {

    public StartupException(String message, Throwable cause) {
        super(message, cause);
    }
}
