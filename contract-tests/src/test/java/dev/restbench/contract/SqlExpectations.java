package dev.restbench.contract;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.restbench.manifest.Manifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a variant declares about its SQL: {@code sql-statements.json} in its folder (benchmarks.json {@code folder}),
 * beside the code that issues the statements, where the variant's author sees it. Per request (a
 * {@link SqlStatementCountTest} case name): the statements, as a number or {@code {"statements": n,
 * "transactions": m}}; {@code transactionsPerRequest} is the BEGINs of every request that does not say otherwise.
 * A variant that runs another's application code on another server says so instead of copying the counts:
 * {@code {"sameAs": "../spring-mvc/sql-statements.json"}} (a path relative to its own file; one step, no chains).
 */
record SqlExpectations(Path file, int transactionsPerRequest, Map<String, Expected> requests) {

    record Expected(int statements, int transactions) {
    }

    static final String FILE = "sql-statements.json";

    static SqlExpectations of(Manifest.Variant variant) {
        Path file = ContractManifest.root().resolve(variant.folder()).resolve(FILE);
        if (!Files.isRegularFile(file)) {
            return new SqlExpectations(file, 0, Map.of());
        }
        try {
            JsonNode root = new ObjectMapper().readTree(file.toFile());
            if (root.has("sameAs")) {
                Path same = file.getParent().resolve(root.path("sameAs").asText()).normalize();
                if (!Files.isRegularFile(same)) {
                    throw new AssertionError(file + ": \"sameAs\" names " + same + ", which does not exist");
                }
                root = new ObjectMapper().readTree(same.toFile());
                if (root.has("sameAs")) {
                    throw new AssertionError(file + ": \"sameAs\" names " + same + ", which is itself a \"sameAs\"");
                }
                file = same;
            }
            int perRequest = root.path("transactionsPerRequest").asInt(0);
            Map<String, Expected> requests = new LinkedHashMap<>();
            root.path("requests").fields().forEachRemaining(e -> requests.put(e.getKey(), e.getValue().isInt()
                    ? new Expected(e.getValue().asInt(), perRequest)
                    : new Expected(e.getValue().path("statements").asInt(-1),
                    e.getValue().path("transactions").asInt(perRequest))));
            return new SqlExpectations(file, perRequest, requests);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * The expectation for one request, or a failure that says where to declare it and what PostgreSQL logged, so a
     * new variant's author can judge the count (and fix an N+1 rather than pin it).
     */
    Expected of(String request, List<String> logged, List<String> transactionControl) {
        return Optional.ofNullable(requests.get(request)).orElseThrow(() -> new AssertionError(
                "no expected SQL statement count for \"" + request + "\": declare it in " + file + " (\"requests\": {\""
                        + request + "\": " + logged.size() + "} if that is the stack's fair minimum); PostgreSQL logged "
                        + logged.size() + " statement(s), transaction control " + transactionControl + ":\n"
                        + String.join("\n", logged)));
    }
}
