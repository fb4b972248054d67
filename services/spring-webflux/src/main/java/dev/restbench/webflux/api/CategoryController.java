package dev.restbench.webflux.api;

import dev.restbench.webflux.Timestamps;
import dev.restbench.webflux.data.Category;
import dev.restbench.webflux.data.CategoryRepository;
import dev.restbench.webflux.web.NotFoundException;
import dev.restbench.webflux.web.PageResponse;
import dev.restbench.webflux.web.Paging;
import jakarta.validation.Valid;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.net.URI;

/**
 * /categories. Ids and paging parameters are taken as text and parsed by {@link Paging}, so a wrong type and a
 * value out of range are both 400 problems listing the parameter.
 */
@RestController
@RequestMapping(path = "/categories", produces = MediaType.APPLICATION_JSON_VALUE)
class CategoryController {

    private final CategoryRepository categories;

    CategoryController(CategoryRepository categories) {
        this.categories = categories;
    }

    @GetMapping
    Mono<PageResponse<Category>> list(@RequestParam(required = false) String page,
            @RequestParam(required = false) String size) {
        return categories.findPage(Paging.of(page, size));
    }

    @GetMapping("/{id}")
    Mono<Category> get(@PathVariable String id) {
        long categoryId = Paging.id("id", id);
        return categories.findById(categoryId)
                .switchIfEmpty(Mono.error(() -> new NotFoundException("category", categoryId)));
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Category>> create(@Valid @RequestBody CategoryRequest request) {
        return categories.insert(request, Timestamps.now())
                .map(created -> ResponseEntity.created(URI.create("/categories/" + created.id())).body(created));
    }

    @PutMapping(path = "/{id}", consumes = MediaType.APPLICATION_JSON_VALUE)
    Mono<Category> update(@PathVariable String id, @Valid @RequestBody CategoryRequest request) {
        long categoryId = Paging.id("id", id);
        return categories.update(categoryId, request, Timestamps.now())
                .switchIfEmpty(Mono.error(() -> new NotFoundException("category", categoryId)));
    }

    // 204 without a body: any Accept header will do.
    @DeleteMapping(path = "/{id}", produces = MediaType.ALL_VALUE)
    @ResponseStatus(HttpStatus.NO_CONTENT)
    Mono<Void> delete(@PathVariable String id) {
        long categoryId = Paging.id("id", id);
        return categories.delete(categoryId)
                .flatMap(deleted -> deleted ? Mono.<Void>empty()
                        : Mono.error(new NotFoundException("category", categoryId)));
    }
}
