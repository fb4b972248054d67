package dev.restbench.webflux.web;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;

/** A request body longer than MAX_BODY_BYTES: 413. */
public class BodyTooLargeException extends ResponseStatusException {

    public BodyTooLargeException(long maxBytes) {
        super(HttpStatus.CONTENT_TOO_LARGE, "the request body is larger than " + maxBytes + " bytes");
    }

    @Override
    public String getMessage() {
        return getReason();
    }
}
