package dev.restbench.quarkus.orm;

import dev.restbench.plain.api.ProblemException;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.util.List;
import org.hibernate.StaleStateException;
import org.hibernate.exception.ConstraintViolationException;
import org.jboss.logging.Logger;
import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

/**
 * Reads what the database refused from the exception Hibernate throws: the constraint's name (PostgreSQL's own,
 * from the driver's error, else Hibernate's extraction), so that conflicts are detected race-free by the database,
 * as in every variant; and a value it refused, which the sibling's mapper answers from the driver's SQLException.
 */
final class Constraints {

    private static final Logger LOG = Logger.getLogger(Constraints.class);

    static final String CATEGORY_CODE = "category_code_key";
    static final String ITEM_SKU = "item_sku_key";
    static final String ITEM_CATEGORY = "item_category_fk";

    private Constraints() {
    }

    /** The name of the constraint the statement violated, or null when the failure is something else. */
    static String violated(Throwable failure) {
        String fromHibernate = null;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PSQLException psql) {
                ServerErrorMessage message = psql.getServerErrorMessage();
                if (message != null && message.getConstraint() != null) {
                    return message.getConstraint();
                }
            }
            if (cause instanceof ConstraintViolationException violation && fromHibernate == null) {
                fromHibernate = violation.getConstraintName();
            }
        }
        return fromHibernate;
    }

    /**
     * What a refused write is when it is no known constraint's: a value PostgreSQL refused (a 400, see
     * {@link #refusedValue}); for an update ({@code id} set), a row a concurrent DELETE removed after it was loaded
     * (the UPDATE found none: a 404, as the sibling's UPDATE … RETURNING that finds no row); else the failure itself.
     */
    static RuntimeException otherRefusal(PersistenceException failure, String kind, Long id) {
        ProblemException refused = refusedValue(failure);
        if (refused != null) {
            return refused;
        }
        if (id != null && rowGone(failure)) {
            return ProblemException.notFound(kind + " " + id + " does not exist");
        }
        return failure;
    }

    /** The UPDATE found no row: a concurrent DELETE removed it after it was loaded. */
    private static boolean rowGone(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof OptimisticLockException || cause instanceof StaleStateException) {
                return true;
            }
        }
        return false;
    }

    /**
     * A value PostgreSQL refused (SQLState class 22, data exception, or 23514, check violation) that validation let
     * through: the request's fault, so the 400 problem the sibling's ProblemMappers gives a SQLException of those
     * states (Hibernate wraps it here, where the sibling's JDBC code throws it), logged as there because the
     * validation should have caught it. Null when the failure is something else.
     */
    private static ProblemException refusedValue(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("22") || sql.getSQLState().equals("23514"))) {
                LOG.warnf("database refused a value: %s", sql.getMessage());
                return ProblemException.badRequest("the database refused a value of the request", List.of());
            }
        }
        return null;
    }
}
