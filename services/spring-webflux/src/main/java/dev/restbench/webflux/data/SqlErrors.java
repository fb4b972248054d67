package dev.restbench.webflux.data;

import io.r2dbc.postgresql.api.PostgresqlException;

/**
 * Reads PostgreSQL's SQLState and constraint name from r2dbc-postgresql's exception (Spring wraps it in a
 * DataAccessException), so that conflicts are detected race-free by the database.
 */
final class SqlErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlErrors() {
    }

    static boolean is(Throwable e, String sqlState, String constraint) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PostgresqlException postgres) {
                return sqlState.equals(postgres.getErrorDetails().getCode())
                        && constraint.equals(postgres.getErrorDetails().getConstraintName().orElse(null));
            }
        }
        return false;
    }
}
