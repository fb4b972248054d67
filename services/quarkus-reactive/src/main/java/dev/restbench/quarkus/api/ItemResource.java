package dev.restbench.quarkus.api;

import dev.restbench.plain.api.Params;
import dev.restbench.plain.api.ProblemException;
import dev.restbench.plain.api.RequestValidator;
import dev.restbench.plain.api.UpdatedAt;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
import dev.restbench.quarkus.data.ReactiveItemRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/** /items, as services/quarkus's ItemResource but non-blocking (Uni, on the event loop). */
@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
public class ItemResource {

    private final ReactiveItemRepository items;

    @Inject
    public ItemResource(ReactiveItemRepository items) {
        this.items = items;
    }

    @GET
    public Uni<Page<Item>> list(@Context HttpServerRequest request) {
        return items.findPage(Query.categoryId(request), Query.page(request));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(ItemRequest body) {
        return items.insert(RequestValidator.valid(body), UpdatedAt.now())
                // Location as the contract shows it (/items/{id}); Response.created would make it absolute.
                .map(created -> Response.status(Response.Status.CREATED)
                        .header(HttpHeaders.LOCATION, "/items/" + created.id()).entity(created).build());
    }

    @GET
    @Path("{id}")
    public Uni<Item> get(@PathParam("id") String id) {
        long itemId = Params.id(id);
        return items.findById(itemId).map(found -> found.orElseThrow(() -> notFound(itemId)));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Item> update(@PathParam("id") String id, ItemRequest body) {
        long itemId = Params.id(id);
        return items.update(itemId, RequestValidator.valid(body), UpdatedAt.now())
                .map(updated -> updated.orElseThrow(() -> notFound(itemId)));
    }

    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long itemId = Params.id(id);
        return items.delete(itemId).map(deleted -> {
            if (!deleted) {
                throw notFound(itemId);
            }
            return Response.noContent().build();
        });
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("item " + id + " does not exist");
    }
}
