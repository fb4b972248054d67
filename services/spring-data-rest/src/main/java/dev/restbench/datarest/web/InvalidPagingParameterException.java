package dev.restbench.datarest.web;

/** A {@code page} or {@code size} query parameter outside the API's limits (400). */
public class InvalidPagingParameterException extends RuntimeException {

    public InvalidPagingParameterException(String message) {
        super(message);
    }
}
