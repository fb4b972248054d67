package dev.restbench.quarkus.data;

import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * A fixed-size pool, as every variant's: the Vert.x pool opens connections on demand and has no minimum size, so the
 * start-up borrows DB_POOL_SIZE connections at once (opening them all, no statement sent) and hands them back. With
 * no idle timeout (Quarkus's default) they stay open, as Agroal's min-size = max-size connections do in quarkus.
 */
@Singleton
public class PoolWarmUp {

    private static final Logger LOG = Logger.getLogger(PoolWarmUp.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final Pool pool;

    @Inject
    public PoolWarmUp(Pool pool) {
        this.pool = pool;
    }

    public void openAll(int size) {
        List<Uni<SqlConnection>> connections = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            connections.add(pool.getConnection());
        }
        try {
            List<SqlConnection> opened = Uni.join().all(connections).andFailFast().await().atMost(TIMEOUT);
            for (SqlConnection connection : opened) {
                connection.closeAndAwait();
            }
        } catch (RuntimeException e) {
            // The schema check connected a moment ago; the health check reports DOWN while the database is away.
            LOG.warnf("could not open the pool's %d connections at start-up: %s", size, e.getMessage());
        }
    }
}
