package dev.restbench.plain.data;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** Reads PostgreSQL's SQLState and constraint name, so that conflicts are detected race-free by the database. */
final class SqlErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlErrors() {
    }

    static boolean is(SQLException e, String sqlState, String constraint) {
        return sqlState.equals(e.getSQLState()) && constraint.equals(constraintOf(e));
    }

    static String constraintOf(SQLException e) {
        if (e instanceof PSQLException psql) {
            ServerErrorMessage message = psql.getServerErrorMessage();
            return message == null ? null : message.getConstraint();
        }
        return null;
    }
}
