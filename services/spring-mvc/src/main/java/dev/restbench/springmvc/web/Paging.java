package dev.restbench.springmvc.web;

import org.springframework.data.domain.PageRequest;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;

/** The paging rules of the plain API: page >= 0, 1 <= size <= 100 (validated, never clamped), ordered by id. */
public final class Paging {

    public static final int MAX_SIZE = 100;

    private Paging() {
    }

    public static PageRequest byId(int page, int size) {
        return PageRequest.of(page, size, Sort.by("id"));
    }

    /**
     * JPA addresses rows with an int offset ({@code Query#setFirstResult}), so a valid but huge page number
     * (page × size above 2^31-1) cannot be queried; such a page is past the end of any table here and is
     * answered with its totals only.
     */
    public static boolean startsBeyondIntOffset(Pageable pageable) {
        return pageable.getOffset() > Integer.MAX_VALUE;
    }
}
