package dev.restbench.springmvc.web;

/** The request clashes with the current state (a category that still has items): 409. */
public class ConflictException extends RuntimeException {

    public ConflictException(String message, Throwable cause) {
        super(message, cause);
    }
}
