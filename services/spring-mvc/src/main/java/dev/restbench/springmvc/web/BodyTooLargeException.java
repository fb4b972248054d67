package dev.restbench.springmvc.web;

import org.springframework.http.HttpStatus;

import java.io.IOException;

/** Thrown while reading a request body that turns out to be longer than MAX_BODY_BYTES: 413. */
public class BodyTooLargeException extends IOException {

    /** 413, by number: Spring 7 names it CONTENT_TOO_LARGE (RFC 9110), Spring 6 (spring-mvc-boot3) PAYLOAD_TOO_LARGE. */
    public static final HttpStatus STATUS = HttpStatus.valueOf(413);

    public BodyTooLargeException(long maxBytes) {
        super("the request body is larger than " + maxBytes + " bytes");
    }
}
