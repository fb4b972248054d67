package dev.restbench.plain.model;

import java.util.List;

/** One page of a listing, ordered by id. */
public record Page<T>(List<T> content, int page, int size, long totalElements, long totalPages) {

    public static <T> Page<T> of(List<T> content, PageRequest request, long totalElements) {
        long totalPages = (totalElements + request.size() - 1) / request.size();
        return new Page<>(content, request.page(), request.size(), totalElements, totalPages);
    }
}
