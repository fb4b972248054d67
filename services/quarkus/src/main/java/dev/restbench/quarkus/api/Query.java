package dev.restbench.quarkus.api;

import dev.restbench.plain.api.Params;
import dev.restbench.plain.model.PageRequest;
import io.vertx.core.http.HttpServerRequest;
import java.util.OptionalLong;

/**
 * The query parameters as sent, from Vert.x: Quarkus REST drops empty values ({@code ?page=} bound as absent), and
 * the API refuses them, as every variant does (Params: given at most once, never empty; issue 22).
 */
final class Query {

    private Query() {
    }

    static PageRequest page(HttpServerRequest request) {
        return Params.page(request.params().getAll("page"), request.params().getAll("size"));
    }

    static OptionalLong categoryId(HttpServerRequest request) {
        return Params.optionalId("categoryId", request.params().getAll("categoryId"));
    }
}
