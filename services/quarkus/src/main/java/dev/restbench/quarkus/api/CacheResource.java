package dev.restbench.quarkus.api;

import dev.restbench.plain.api.ProblemException;
import dev.restbench.support.cache.ValueCache;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

/**
 * /cache/{key}: the no-database workload, one value from the in-process cache. A blocking signature like every
 * resource of this variant, so it runs where they run: the worker pool here, a virtual thread in quarkus-virtual
 * (quarkus-reactive has its own, on the event loop).
 */
@Singleton
@Path("/cache")
@Produces(MediaType.APPLICATION_JSON)
public class CacheResource {

    private final ValueCache cache = new ValueCache();

    @GET
    @Path("{key}")
    public ValueCache.Entry get(@PathParam("key") String key) {
        if (!ValueCache.isKey(key)) {
            throw ProblemException.invalidField("key", ValueCache.invalidKeyMessage());
        }
        return cache.get(key);
    }
}
