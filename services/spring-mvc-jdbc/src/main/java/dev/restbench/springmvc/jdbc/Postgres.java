package dev.restbench.springmvc.jdbc;

import org.postgresql.util.PSQLException;
import org.postgresql.util.ServerErrorMessage;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * What the JDBC repositories need from PostgreSQL beyond Spring's JDBC support: timestamptz as
 * {@link OffsetDateTime} (bound and read as jersey's shared/plain-jdbc does) and the name of the constraint a write
 * violated (JPA's variant reads it from Hibernate's ConstraintViolationException, which is not here).
 */
public final class Postgres {

    private Postgres() {
    }

    /** A timestamptz parameter: pgjdbc binds an OffsetDateTime as timestamptz (an Instant it does not take). */
    public static OffsetDateTime timestamptz(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    public static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    /**
     * The constraint PostgreSQL named when it refused a statement (unique key, foreign key), from the driver's
     * exception anywhere in the cause chain of Spring's DataAccessException; null when there is none.
     */
    public static String violatedConstraint(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof PSQLException psql) {
                ServerErrorMessage message = psql.getServerErrorMessage();
                return message == null ? null : message.getConstraint();
            }
        }
        return null;
    }
}
