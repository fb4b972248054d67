package dev.restbench.quarkus.api;

import dev.restbench.plain.api.ProblemException;
import dev.restbench.support.cache.ValueCache;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** /cache/{key}, as services/quarkus's CacheResource but non-blocking (Uni, on the event loop). */
@Singleton
@Path("/cache")
@Produces(MediaType.APPLICATION_JSON)
public class CacheResource {

    private final ValueCache cache = new ValueCache();

    @GET
    @Path("{key}")
    public Uni<ValueCache.Entry> get(@PathParam("key") String key) {
        if (!ValueCache.isKey(key)) {
            throw ProblemException.invalidField("key", ValueCache.invalidKeyMessage());
        }
        return Uni.createFrom().item(cache.get(key));
    }
}
