package dev.restbench.springmvc.item;

import dev.restbench.springmvc.web.PageResponse;
import dev.restbench.springmvc.web.Paging;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
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

import java.net.URI;

@RestController
class ItemController {

    private final ItemService items;

    ItemController(ItemService items) {
        this.items = items;
    }

    @GetMapping(path = "/items", produces = MediaType.APPLICATION_JSON_VALUE)
    PageResponse<ItemResponse> list(
            @RequestParam(required = false) Long categoryId,
            @RequestParam(defaultValue = "0") @Min(0) int page,
            @RequestParam(defaultValue = "20") @Min(1) @Max(Paging.MAX_SIZE) int size) {
        return PageResponse.of(items.list(categoryId, Paging.byId(page, size)), ItemResponse::of);
    }

    @GetMapping(path = "/categories/{categoryId}/items", produces = MediaType.APPLICATION_JSON_VALUE)
    PageResponse<ItemResponse> listOfCategory(
            @PathVariable long categoryId,
            @RequestParam(defaultValue = "0") @Min(0) int page,
            @RequestParam(defaultValue = "20") @Min(1) @Max(Paging.MAX_SIZE) int size) {
        return PageResponse.of(items.listOfCategory(categoryId, Paging.byId(page, size)), ItemResponse::of);
    }

    @GetMapping(path = "/items/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    ItemResponse get(@PathVariable long id) {
        return ItemResponse.of(items.get(id));
    }

    @PostMapping(path = "/items", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ResponseEntity<ItemResponse> create(@Valid @RequestBody ItemRequest request) {
        Item created = items.create(request);
        return ResponseEntity.created(URI.create("/items/" + created.getId())).body(ItemResponse.of(created));
    }

    @PutMapping(path = "/items/{id}", consumes = MediaType.APPLICATION_JSON_VALUE,
            produces = MediaType.APPLICATION_JSON_VALUE)
    ItemResponse update(@PathVariable long id, @Valid @RequestBody ItemRequest request) {
        return ItemResponse.of(items.update(id, request));
    }

    // 204 without a body: any Accept header will do.
    @DeleteMapping("/items/{id}")
    @ResponseStatus(HttpStatus.NO_CONTENT)
    void delete(@PathVariable long id) {
        items.delete(id);
    }
}
