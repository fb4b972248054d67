package dev.restbench.quarkus.orm;

import dev.restbench.plain.model.PageRequest;

/** Paging as JPA can express it. */
final class Paging {

    private Paging() {
    }

    /**
     * A page that starts beyond row 2^31-1 (a valid {@code page} times {@code size}) cannot be asked for: JPA's first
     * result is an int. Such a page is empty (the table holds far fewer rows), so the content query is skipped and
     * only the count runs, as in spring-mvc.
     */
    static boolean beyondFirstResult(PageRequest request) {
        return request.offset() > Integer.MAX_VALUE;
    }
}
