package dev.restbench.jersey.http;

import java.io.IOException;

/** The request body is larger than MAX_BODY_BYTES. (413) An IOException so it can leave the body stream. */
public final class BodyTooLargeException extends IOException {

    public BodyTooLargeException(long maxBodyBytes) {
        super("the request body exceeds the limit of " + maxBodyBytes + " bytes");
    }
}
