package dev.restbench.webflux.api;

import dev.restbench.webflux.Timestamps;
import dev.restbench.webflux.data.Item;
import dev.restbench.webflux.data.ItemRepository;
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
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

import java.net.URI;

/** /items and /categories/{id}/items. */
@RestController
class ItemController {

    private final ItemRepository items;

    ItemController(ItemRepository items) {
        this.items = items;
    }

    @GetMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<PageResponse<Item>> list(@RequestParam(required = false) String categoryId,
            @RequestParam(required = false) String page, @RequestParam(required = false) String size) {
        Long category = Paging.optionalLong("categoryId", categoryId);
        return items.findPage(category, Paging.of(page, size));
    }

    @GetMapping(path = "/categories/{id}/items", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<PageResponse<Item>> listOfCategory(@PathVariable String id, @RequestParam(required = false) String page,
            @RequestParam(required = false) String size) {
        long categoryId = Paging.id("id", id);
        return items.findPageOfExistingCategory(categoryId, Paging.of(page, size))
                .switchIfEmpty(Mono.error(() -> new NotFoundException("category", categoryId)));
    }

    @GetMapping(path = "/items/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Item> get(@PathVariable String id) {
        long itemId = Paging.id("id", id);
        return items.findById(itemId).switchIfEmpty(Mono.error(() -> new NotFoundException("item", itemId)));
    }

    @PostMapping(path = "/items", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ResponseEntity<Item>> create(@Valid @RequestBody ItemRequest request) {
        return items.insert(request, Timestamps.now())
                .map(created -> ResponseEntity.created(URI.create("/items/" + created.id())).body(created));
    }

    @PutMapping(path = "/items/{id}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<Item> update(@PathVariable String id, @Valid @RequestBody ItemRequest request) {
        long itemId = Paging.id("id", id);
        return items.update(itemId, request, Timestamps.now())
                .switchIfEmpty(Mono.error(() -> new NotFoundException("item", itemId)));
    }

    // 204 without a body: any Accept header will do.
    @DeleteMapping("/items/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    Mono<Void> delete(@PathVariable String id) {
        long itemId = Paging.id("id", id);
        return items.delete(itemId)
                .flatMap(deleted -> deleted ? Mono.<Void>empty() : Mono.error(new NotFoundException("item", itemId)));
    }
}
