package dev.restbench.jersey.http;

import java.net.URI;
import java.net.URISyntaxException;

/**
 * Whether a Host header can be the authority of the request's URI, which JAX-RS containers build from it
 * ({@code http://} + host + path): Jersey on Grizzly fails with a 500 on one that cannot (a quote, an unclosed IPv6
 * literal, bytes outside ASCII, an empty value), RESTEasy wherever the URI is first read. RFC 9112 asks for a 400.
 * Used at the edge of jersey (WellFormedUriHandler) and resteasy (ProblemEdgeHandler).
 */
public final class HostHeader {

    private HostHeader() {
    }

    /** Absent (HTTP/1.0: the server's own address is used) is valid; empty is not (origin-form needs an authority). */
    public static boolean valid(String host) {
        if (host == null) {
            return true;
        }
        if (host.isEmpty()) {
            return false;
        }
        // The usual name-or-address[:port], checked by its characters alone.
        boolean plain = true;
        for (int i = 0; i < host.length() && plain; i++) {
            char c = host.charAt(i);
            plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
                    || c == '-' || c == ':';
        }
        int colon = host.indexOf(':');
        if (plain && colon != 0 && (colon < 0 || (colon == host.lastIndexOf(':') && colon < host.length() - 1))) {
            return true;
        }
        // Anything else (IPv6 literals, unusual characters) as a URI authority, as the containers will read it.
        try {
            URI uri = new URI("http://" + host + "/");
            return uri.getRawAuthority() != null && uri.getRawAuthority().equals(host) && uri.getRawPath().equals("/")
                    && uri.getHost() != null;
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
