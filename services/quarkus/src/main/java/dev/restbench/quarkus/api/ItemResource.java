package dev.restbench.quarkus.api;

import dev.restbench.plain.api.Params;
import dev.restbench.plain.api.RequestValidator;
import dev.restbench.plain.api.UpdatedAt;
import dev.restbench.plain.api.ProblemException;
import dev.restbench.plain.data.ItemStore;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.ItemRequest;
import dev.restbench.plain.model.Page;
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
import java.sql.SQLException;

/** /items; every item carries its category inline. Blocking signatures: served on the worker pool. */
@Path("/items")
@Produces(MediaType.APPLICATION_JSON)
public class ItemResource {

    private final ItemStore items;

    @Inject
    public ItemResource(ItemStore items) {
        this.items = items;
    }

    @GET
    public Page<Item> list(@Context HttpServerRequest request) throws SQLException {
        return items.findPage(Query.categoryId(request), Query.page(request));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(ItemRequest body) throws SQLException {
        Item created = items.insert(RequestValidator.valid(body), UpdatedAt.now());
        // Location as the contract shows it (/items/{id}); Response.created would make it absolute.
        return Response.status(Response.Status.CREATED).header(HttpHeaders.LOCATION, "/items/" + created.id())
                .entity(created).build();
    }

    @GET
    @Path("{id}")
    public Item get(@PathParam("id") String id) throws SQLException {
        long itemId = Params.id(id);
        return items.findById(itemId).orElseThrow(() -> notFound(itemId));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Item update(@PathParam("id") String id, ItemRequest body) throws SQLException {
        long itemId = Params.id(id);
        return items.update(itemId, RequestValidator.valid(body), UpdatedAt.now()).orElseThrow(() -> notFound(itemId));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) throws SQLException {
        long itemId = Params.id(id);
        if (!items.delete(itemId)) {
            throw notFound(itemId);
        }
        return Response.noContent().build();
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("item " + id + " does not exist");
    }
}
