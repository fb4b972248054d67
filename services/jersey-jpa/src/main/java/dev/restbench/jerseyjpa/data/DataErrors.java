package dev.restbench.jerseyjpa.data;

import jakarta.persistence.OptimisticLockException;
import java.sql.SQLException;
import org.hibernate.JDBCException;
import org.hibernate.StaleStateException;
import org.hibernate.exception.ConstraintViolationException;

/**
 * Reads what PostgreSQL refused out of Hibernate's exceptions, which the JPA API may hand over wrapped: the
 * violated constraint's name (as Hibernate's PostgreSQL dialect extracts it, as in spring-mvc), so conflicts stay
 * race-free, decided by the database.
 */
final class DataErrors {

    private DataErrors() {
    }

    /** True when {@code e} or one of its causes is a violation of the named constraint. */
    static boolean violates(Throwable e, String constraint) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof ConstraintViolationException violation
                    && constraint.equalsIgnoreCase(violation.getConstraintName())) {
                return true;
            }
        }
        return false;
    }

    /** True when an UPDATE found no row: the entity was deleted after it was loaded. */
    static boolean isStaleState(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof StaleStateException || cause instanceof OptimisticLockException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The SQLException of a value PostgreSQL refused (SQLState class 22, data exception, or 23514, check
     * violation), else null.
     */
    static SQLException refusedValue(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof JDBCException jdbc && jdbc.getSQLException() != null) {
                String state = jdbc.getSQLException().getSQLState();
                if (state != null && (state.startsWith("22") || state.equals("23514"))) {
                    return jdbc.getSQLException();
                }
                return null;
            }
        }
        return null;
    }
}
