package dev.restbench.springmvc.web;

import org.hibernate.exception.ConstraintViolationException;

/**
 * The constraint PostgreSQL named when it refused a write (unique key, foreign key), as ApiExceptionHandler needs it
 * for a 409 or a 400: the one place the web layer reads the data access's exceptions, so that spring-mvc-jdbc, which
 * compiles this web layer again, replaces this file (pgjdbc's exception) and nothing else of it.
 */
final class ViolatedConstraints {

    private ViolatedConstraints() {
    }

    /** From Hibernate's exception anywhere in the cause chain of Spring's DataAccessException; null when none. */
    static String name(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConstraintViolationException violation) {
                return violation.getConstraintName();
            }
        }
        return null;
    }
}
