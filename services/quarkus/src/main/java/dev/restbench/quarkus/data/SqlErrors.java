package dev.restbench.quarkus.data;

import java.sql.SQLException;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/** PostgreSQL's SQLState and constraint name: conflicts are decided by the database, race-free. */
final class SqlErrors {

    static final String UNIQUE_VIOLATION = "23505";
    static final String FOREIGN_KEY_VIOLATION = "23503";

    private SqlErrors() {
    }

    static boolean is(SQLException e, String sqlState, String constraint) {
        return sqlState.equals(e.getSQLState()) && constraint.equals(constraintOf(e));
    }

    private static String constraintOf(SQLException e) {
        // Agroal hands out wrapped connections but passes the driver's exceptions through unchanged.
        if (e instanceof PSQLException psql) {
            ServerErrorMessage message = psql.getServerErrorMessage();
            return message == null ? null : message.getConstraint();
        }
        return null;
    }
}
