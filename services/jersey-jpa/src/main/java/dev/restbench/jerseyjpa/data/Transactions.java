package dev.restbench.jerseyjpa.data;

import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.EntityTransaction;
import jakarta.persistence.PersistenceException;
import java.sql.SQLException;
import java.util.function.Function;
import org.hibernate.FlushMode;
import org.hibernate.Session;

/**
 * One EntityManager and one transaction per call, the unit of work spring-mvc's {@code @Transactional} services
 * give each request, set up the way Spring's JpaTransactionManager and HibernateJpaDialect set it up, so the two
 * variants send PostgreSQL the same transaction control:
 * <ul>
 *   <li>{@link #read}: the connection is marked read-only before the transaction begins (pgjdbc then sends
 *       {@code BEGIN READ ONLY}), the session loads entities read-only (no snapshots to dirty-check) and never
 *       flushes ({@link FlushMode#MANUAL}).</li>
 *   <li>{@link #write}: a read-write transaction, flushed by the work itself where a constraint must surface as an
 *       exception of the data layer ({@code EntityManager#flush}), and at commit.</li>
 * </ul>
 * The work commits when it returns and rolls back when it throws. Work that returns after Hibernate marked the
 * transaction rollback-only (a failed flush it answered itself, e.g. a row deleted concurrently) rolls back too.
 * A value PostgreSQL refuses (SQLState class 22, a check constraint) comes out as its {@link SQLException}, which
 * jersey's ProblemMapper answers with a 400, as it does for the JDBC variant.
 */
public final class Transactions {

    /** What runs inside the transaction. */
    @FunctionalInterface
    public interface Work<T> {
        T run(EntityManager entityManager);
    }

    private final EntityManagerFactory entityManagerFactory;

    public Transactions(EntityManagerFactory entityManagerFactory) {
        this.entityManagerFactory = entityManagerFactory;
    }

    public <T> T read(Work<T> work) throws SQLException {
        EntityManager entityManager = entityManagerFactory.createEntityManager();
        try {
            Session session = entityManager.unwrap(Session.class);
            // As HibernateJpaDialect#beginTransaction for a read-only transaction: the connection first (Spring's
            // DataSourceUtils.prepareConnectionForTransaction), then the session.
            session.doWork(connection -> connection.setReadOnly(true));
            session.setDefaultReadOnly(true);
            session.setHibernateFlushMode(FlushMode.MANUAL);
            return inTransaction(entityManager, work);
        } finally {
            // Back in the pool, HikariCP resets the connection's read-only flag (a local setting of pgjdbc).
            entityManager.close();
        }
    }

    public <T> T write(Work<T> work) throws SQLException {
        EntityManager entityManager = entityManagerFactory.createEntityManager();
        try {
            return inTransaction(entityManager, work);
        } finally {
            entityManager.close();
        }
    }

    /**
     * {@code EntityManager#persist}; an identity entity is inserted at once, so a row PostgreSQL refuses fails here,
     * as {@code translate} says (a conflict, an unknown category) or as it is.
     */
    public static void persist(EntityManager entityManager, Object entity,
            Function<PersistenceException, RuntimeException> translate) {
        try {
            entityManager.persist(entity);
        } catch (PersistenceException e) {
            throw translate.apply(e);
        }
    }

    /**
     * Flushes the changes of loaded entities now, so a row PostgreSQL refuses fails here, as {@code translate} says,
     * and not at commit. False when an UPDATE found no row: a concurrent DELETE removed the entity after it was
     * loaded (the transaction is then marked rollback-only and ends in a rollback).
     */
    public static boolean flush(EntityManager entityManager,
            Function<PersistenceException, RuntimeException> translate) {
        try {
            entityManager.flush();
            return true;
        } catch (PersistenceException e) {
            if (DataErrors.isStaleState(e)) {
                return false;
            }
            throw translate.apply(e);
        }
    }

    private static <T> T inTransaction(EntityManager entityManager, Work<T> work) throws SQLException {
        EntityTransaction transaction = entityManager.getTransaction();
        transaction.begin();
        T result;
        try {
            result = work.run(entityManager);
            if (transaction.getRollbackOnly()) {
                transaction.rollback();
            } else {
                transaction.commit();
            }
        } catch (RuntimeException e) {
            if (transaction.isActive()) {
                try {
                    transaction.rollback();
                } catch (RuntimeException rollback) {
                    e.addSuppressed(rollback);
                }
            }
            SQLException refused = DataErrors.refusedValue(e);
            if (refused != null) {
                throw refused;
            }
            throw e;
        }
        return result;
    }
}
