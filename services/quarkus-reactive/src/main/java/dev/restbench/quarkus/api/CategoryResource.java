package dev.restbench.quarkus.api;

import dev.restbench.plain.api.Params;
import dev.restbench.plain.api.ProblemException;
import dev.restbench.plain.api.RequestValidator;
import dev.restbench.plain.api.UpdatedAt;
import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.Page;
import dev.restbench.quarkus.data.ReactiveCategoryRepository;
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

/**
 * /categories, as services/quarkus's CategoryResource but non-blocking: each method returns a Uni, so Quarkus REST
 * runs it on the Vert.x event loop that read the request, and the reactive client answers on that loop. Parameters
 * and bodies are checked before any statement is sent, with the same rules and messages.
 */
@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
public class CategoryResource {

    private final ReactiveCategoryRepository categories;
    private final ReactiveItemRepository items;

    @Inject
    public CategoryResource(ReactiveCategoryRepository categories, ReactiveItemRepository items) {
        this.categories = categories;
        this.items = items;
    }

    @GET
    public Uni<Page<Category>> list(@Context HttpServerRequest request) {
        return categories.findPage(Query.page(request));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Response> create(CategoryRequest body) {
        return categories.insert(RequestValidator.valid(body), UpdatedAt.now())
                // Location as the contract shows it (/categories/{id}); Response.created would make it absolute.
                .map(created -> Response.status(Response.Status.CREATED)
                        .header(HttpHeaders.LOCATION, "/categories/" + created.id()).entity(created).build());
    }

    @GET
    @Path("{id}")
    public Uni<Category> get(@PathParam("id") String id) {
        long categoryId = Params.id(id);
        return categories.findById(categoryId).map(found -> found.orElseThrow(() -> notFound(categoryId)));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Category> update(@PathParam("id") String id, CategoryRequest body) {
        long categoryId = Params.id(id);
        return categories.update(categoryId, RequestValidator.valid(body), UpdatedAt.now())
                .map(updated -> updated.orElseThrow(() -> notFound(categoryId)));
    }

    @DELETE
    @Path("{id}")
    public Uni<Response> delete(@PathParam("id") String id) {
        long categoryId = Params.id(id);
        return categories.delete(categoryId).map(deleted -> {
            if (!deleted) {
                throw notFound(categoryId);
            }
            return Response.noContent().build();
        });
    }

    @GET
    @Path("{id}/items")
    public Uni<Page<Item>> items(@PathParam("id") String id, @Context HttpServerRequest request) {
        long categoryId = Params.id(id);
        return items.findPageOfExistingCategory(categoryId, Query.page(request))
                .map(page -> page.orElseThrow(() -> notFound(categoryId)));
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("category " + id + " does not exist");
    }
}
