package dev.restbench.springmvc.web;

import java.io.IOException;

/** Thrown while reading a request body that turns out to be longer than MAX_BODY_BYTES: 413. */
public class BodyTooLargeException extends IOException {

    public BodyTooLargeException(long maxBytes) {
        super("the request body is larger than " + maxBytes + " bytes");
    }
}
