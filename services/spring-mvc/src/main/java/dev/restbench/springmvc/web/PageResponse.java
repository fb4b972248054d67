package dev.restbench.springmvc.web;

import org.springframework.data.domain.Page;

import java.util.List;
import java.util.function.Function;

/** The plain API's page shape: {"content":[…],"page":0,"size":20,"totalElements":123,"totalPages":7}. */
public record PageResponse<T>(List<T> content, int page, int size, long totalElements, int totalPages) {

    public static <E, T> PageResponse<T> of(Page<E> page, Function<? super E, ? extends T> toResponse) {
        List<T> content = page.getContent().stream().<T>map(toResponse).toList();
        return new PageResponse<>(content, page.getNumber(), page.getSize(), page.getTotalElements(),
                page.getTotalPages());
    }
}
