package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaValidatorsConfig;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import com.networknt.schema.oas.OpenApi31;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Checks a response of the plain API against {@code openapi.yaml}: the status must be documented for the
 * operation, the Content-Type must be the documented media type, and the body must validate (JSON Schema 2020-12,
 * OpenAPI 3.1 dialect, formats asserted) against the documented schema.
 */
final class OpenApiContract {

    static final String RESOURCE = "openapi.yaml";
    private static final OpenApiContract INSTANCE = new OpenApiContract();

    private final JsonNode document;
    private final JsonSchemaFactory factory = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012,
            builder -> builder.metaSchema(OpenApi31.getInstance())
                    .defaultMetaSchemaIri(OpenApi31.getInstance().getIri()));
    private final SchemaValidatorsConfig config = SchemaValidatorsConfig.builder()
            .formatAssertionsEnabled(true)
            .build();
    private final Map<String, JsonSchema> schemas = new ConcurrentHashMap<>();

    private OpenApiContract() {
        try (InputStream in = OpenApiContract.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " not on the class path");
            }
            document = new ObjectMapper(new YAMLFactory()).readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static OpenApiContract get() {
        return INSTANCE;
    }

    JsonNode document() {
        return document;
    }

    /** Asserts that {@code response}, answered to {@code method} on {@code pathTemplate}, is what the document says. */
    void assertConforms(String method, String pathTemplate, Http.Response response) {
        JsonNode pathItem = document.path("paths").path(pathTemplate);
        if (pathItem.isMissingNode()) {
            throw new AssertionError("path " + pathTemplate + " is not in " + RESOURCE);
        }
        JsonNode operation = pathItem.path(method.toLowerCase());
        JsonNode documented;
        if (operation.isMissingNode()) {
            if (response.status() != 405) {
                throw new AssertionError(method + " " + pathTemplate + " is not an operation, so it must be 405: "
                        + response);
            }
            documented = resolve(document.path("components").path("responses").path("MethodNotAllowed"));
        } else {
            documented = operation.path("responses").path(Integer.toString(response.status()));
            if (documented.isMissingNode()) {
                throw new AssertionError("status " + response.status() + " is not documented for " + method + " "
                        + pathTemplate + ": " + response);
            }
            documented = resolve(documented);
        }
        assertHeaders(documented, response);
        JsonNode content = documented.path("content");
        if (content.isMissingNode() || content.isEmpty()) {
            return; // no body documented (204, 406)
        }
        String mediaType = response.mediaType();
        JsonNode media = content.path(mediaType);
        if (media.isMissingNode()) {
            throw new AssertionError("Content-Type '" + mediaType + "' is not documented for " + response.status()
                    + " on " + method + " " + pathTemplate + " (documented: " + fieldNames(content) + "): "
                    + response);
        }
        String ref = media.path("schema").path("$ref").asText(null);
        if (ref == null) {
            return; // an inline, non-JSON schema (the Prometheus text)
        }
        assertValid(ref, response.json(), response.toString());
    }

    /** Asserts that {@code body} validates against the schema at {@code ref} ("#/components/schemas/…"). */
    void assertValid(String ref, JsonNode body, String what) {
        Set<ValidationMessage> errors = schema(ref).validate(body);
        if (!errors.isEmpty()) {
            throw new AssertionError("does not match " + ref + " in " + RESOURCE + ": "
                    + errors.stream().map(ValidationMessage::toString).collect(Collectors.joining("; "))
                    + "\n  " + what);
        }
    }

    Set<ValidationMessage> validate(String ref, JsonNode body) {
        return schema(ref).validate(body);
    }

    private JsonSchema schema(String ref) {
        return schemas.computeIfAbsent(ref, r -> {
            JsonSchema schema = factory.getSchema(SchemaLocation.of("classpath:" + RESOURCE + r), config);
            schema.initializeValidators();
            return schema;
        });
    }

    private void assertHeaders(JsonNode documented, Http.Response response) {
        Iterator<Map.Entry<String, JsonNode>> headers = documented.path("headers").fields();
        while (headers.hasNext()) {
            Map.Entry<String, JsonNode> header = headers.next();
            if (resolve(header.getValue()).path("required").asBoolean(false)
                    && response.header(header.getKey()).isEmpty()) {
                throw new AssertionError("header " + header.getKey() + " is required: " + response);
            }
        }
    }

    private JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        while (current.has("$ref")) {
            String ref = current.get("$ref").asText();
            if (!ref.startsWith("#/")) {
                throw new IllegalStateException("only local references are supported: " + ref);
            }
            current = document.at(ref.substring(1));
        }
        return current;
    }

    private static String fieldNames(JsonNode node) {
        StringBuilder names = new StringBuilder();
        node.fieldNames().forEachRemaining(n -> names.append(names.isEmpty() ? "" : ", ").append(n));
        return names.toString();
    }
}
