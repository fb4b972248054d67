package dev.restbench.jersey.api;

import dev.restbench.plain.api.ProblemException;
import dev.restbench.support.cache.ValueCache;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/** /cache/{key}: the no-database workload, one value from the in-process cache; never touches PostgreSQL. */
@Singleton
@Path("/cache")
@Produces(MediaType.APPLICATION_JSON)
public class CacheResource {

    private final ValueCache cache;

    @Inject
    public CacheResource(ValueCache cache) {
        this.cache = cache;
    }

    @GET
    @Path("{key}")
    public ValueCache.Entry get(@PathParam("key") String key) {
        if (!ValueCache.isKey(key)) {
            throw ProblemException.invalidField("key", ValueCache.invalidKeyMessage());
        }
        return cache.get(key);
    }
}
