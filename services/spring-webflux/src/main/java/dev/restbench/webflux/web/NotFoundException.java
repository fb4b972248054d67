package dev.restbench.webflux.web;

/** An unknown id in the path: 404. */
public class NotFoundException extends RuntimeException {

    public NotFoundException(String resource, long id) {
        super(resource + " " + id + " does not exist", null, false, false);
    }
}
