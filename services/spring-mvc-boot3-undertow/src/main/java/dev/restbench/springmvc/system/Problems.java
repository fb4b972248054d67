package dev.restbench.springmvc.system;

import io.undertow.util.StatusCodes;

import java.nio.charset.StandardCharsets;

/** The minimal problem detail the other servers' edges write too (ProblemReportValve on Tomcat, Jetty's handlers). */
final class Problems {

    static final String MEDIA_TYPE = "application/problem+json";

    private Problems() {
    }

    static byte[] body(int status) {
        return ("{\"type\":\"about:blank\",\"title\":\"" + StatusCodes.getReason(status) + "\",\"status\":" + status
                + "}").getBytes(StandardCharsets.UTF_8);
    }
}
