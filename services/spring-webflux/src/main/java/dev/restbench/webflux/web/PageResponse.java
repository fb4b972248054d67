package dev.restbench.webflux.web;

import java.util.List;

/** The plain API's page shape: {"content":[…],"page":0,"size":20,"totalElements":123,"totalPages":7}. */
public record PageResponse<T>(List<T> content, int page, int size, long totalElements, int totalPages) {

    public static <T> PageResponse<T> of(List<T> content, Paging paging, long total) {
        long pages = (total + paging.size() - 1) / paging.size();
        return new PageResponse<>(content, paging.page(), paging.size(), total, (int) Math.min(pages, Integer.MAX_VALUE));
    }
}
