package dev.restbench.jerseyjpa.data;

import dev.restbench.plain.model.PageRequest;
import java.util.OptionalLong;

/**
 * When a page's total is known without a count query: Spring Data's rule (PageableExecutionUtils), which
 * spring-mvc's repositories apply, so both variants issue the same statements for the same page. On the first
 * page when it is not full the total is its size; on a later page that is not empty and not full it is the offset
 * plus its size. Otherwise the count query runs.
 */
final class PageTotals {

    private PageTotals() {
    }

    static OptionalLong known(PageRequest request, int contentSize) {
        if (request.offset() == 0) {
            return request.size() > contentSize ? OptionalLong.of(contentSize) : OptionalLong.empty();
        }
        if (contentSize != 0 && request.size() > contentSize) {
            return OptionalLong.of(request.offset() + contentSize);
        }
        return OptionalLong.empty();
    }

    /**
     * JPA addresses rows with an int offset ({@code Query#setFirstResult}), so a valid but huge page (page × size
     * above 2^31-1) cannot be queried; such a page lies past the end of any table here and is answered with its
     * total only (as spring-mvc's Paging does).
     */
    static boolean startsBeyondIntOffset(PageRequest request) {
        return request.offset() > Integer.MAX_VALUE;
    }
}
