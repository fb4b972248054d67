package dev.restbench.jersey.api;

import dev.restbench.plain.api.Params;
import dev.restbench.plain.api.RequestValidator;
import dev.restbench.plain.api.UpdatedAt;
import dev.restbench.plain.api.ProblemException;
import dev.restbench.plain.data.CategoryStore;
import dev.restbench.plain.data.ItemStore;
import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.Item;
import dev.restbench.plain.model.Page;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.sql.SQLException;
import java.util.List;

/** /categories. @Consumes sits on the methods with a body, so a GET with any Content-Type is still served. */
@Singleton
@Path("/categories")
@Produces(MediaType.APPLICATION_JSON)
public class CategoryResource {

    private final CategoryStore categories;
    private final ItemStore items;

    @Inject
    public CategoryResource(CategoryStore categories, ItemStore items) {
        this.categories = categories;
        this.items = items;
    }

    @GET
    public Page<Category> list(@QueryParam("page") List<String> page, @QueryParam("size") List<String> size)
            throws SQLException {
        return categories.findPage(Params.page(page, size));
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(CategoryRequest body) throws SQLException {
        Category created = categories.insert(RequestValidator.valid(body), UpdatedAt.now());
        return Response.created(URI.create("/categories/" + created.id())).entity(created).build();
    }

    @GET
    @Path("{id}")
    public Category get(@PathParam("id") String id) throws SQLException {
        long categoryId = Params.id(id);
        return categories.findById(categoryId).orElseThrow(() -> notFound(categoryId));
    }

    @PUT
    @Path("{id}")
    @Consumes(MediaType.APPLICATION_JSON)
    public Category update(@PathParam("id") String id, CategoryRequest body) throws SQLException {
        long categoryId = Params.id(id);
        return categories.update(categoryId, RequestValidator.valid(body), UpdatedAt.now())
                .orElseThrow(() -> notFound(categoryId));
    }

    @DELETE
    @Path("{id}")
    public Response delete(@PathParam("id") String id) throws SQLException {
        long categoryId = Params.id(id);
        if (!categories.delete(categoryId)) {
            throw notFound(categoryId);
        }
        return Response.noContent().build();
    }

    @GET
    @Path("{id}/items")
    public Page<Item> items(@PathParam("id") String id, @QueryParam("page") List<String> page,
                            @QueryParam("size") List<String> size) throws SQLException {
        long categoryId = Params.id(id);
        return items.findPageOfExistingCategory(categoryId, Params.page(page, size))
                .orElseThrow(() -> notFound(categoryId));
    }

    private static ProblemException notFound(long id) {
        return ProblemException.notFound("category " + id + " does not exist");
    }
}
