package dev.restbench.quarkus.api;

import dev.restbench.plain.api.FieldError;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** An RFC 9457 problem detail, served as application/problem+json. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(int status, String detail, String instance, List<FieldError> errors) {
        return new Problem("about:blank", title(status), status, detail, instance, errors);
    }

    /** The reason phrase of a status (RFC 9110), e.g. "Bad Request". */
    public static String title(int status) {
        jakarta.ws.rs.core.Response.Status known = jakarta.ws.rs.core.Response.Status.fromStatusCode(status);
        return known != null ? known.getReasonPhrase() : "HTTP " + status;
    }
}
