package dev.restbench.springmvc.web;

import dev.restbench.springmvc.jdbc.Postgres;

/**
 * spring-mvc's web/ViolatedConstraints, replaced: the constraint PostgreSQL named, read from pgjdbc's exception
 * (there is no Hibernate here).
 */
final class ViolatedConstraints {

    private ViolatedConstraints() {
    }

    static String name(Throwable e) {
        return Postgres.violatedConstraint(e);
    }
}
