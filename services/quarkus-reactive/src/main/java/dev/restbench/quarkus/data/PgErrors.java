package dev.restbench.quarkus.data;

import io.vertx.pgclient.PgException;

/** Reads PostgreSQL's SQLState and constraint name from the reactive client's error: conflicts detected race-free. */
public final class PgErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private PgErrors() {
    }

    static boolean is(Throwable e, String sqlState, String constraint) {
        return e instanceof PgException pg && sqlState.equals(pg.getSqlState())
                && constraint.equals(pg.getConstraint());
    }

    /** SQLState class 22 (data exception) or 23514 (check violation): a value of the request PostgreSQL refused. */
    public static boolean isDataError(PgException e) {
        String state = e.getSqlState();
        return state != null && (state.startsWith("22") || state.equals("23514"));
    }
}
