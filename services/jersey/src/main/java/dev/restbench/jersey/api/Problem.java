package dev.restbench.jersey.api;

import dev.restbench.plain.api.FieldError;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** An RFC 9457 problem detail, served as application/problem+json. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
}
