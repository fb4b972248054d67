package dev.restbench.dataset;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Against a real PostgreSQL (the embedded binaries), never a stand-in. */
class PostgresServerTest {

    private static PostgresServer server;

    @BeforeAll
    static void start() {
        server = PostgresServer.embedded(0, false);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @Test
    void templateHoldsTheDatasetAndClonesAreIndependent() throws SQLException {
        server.ensureTemplate("small_template", DatasetSpec.SMALL);
        server.createDatabaseFromTemplate("small_template", "clone_a");
        server.createDatabaseFromTemplate("small_template", "clone_b");

        try (Connection a = server.connect("clone_a"); Connection b = server.connect("clone_b")) {
            assertThat(count(a, "SELECT count(*) FROM item")).isEqualTo(500);
            assertThat(count(a, "SELECT count(*) FROM category")).isEqualTo(20);
            var expected = new DatasetGenerator(DatasetSpec.SMALL).item(123);
            try (Statement s = a.createStatement();
                 ResultSet rs = s.executeQuery("SELECT sku, price, description FROM item WHERE id = 123")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(expected.sku());
                assertThat(rs.getBigDecimal(2)).isEqualTo(expected.price());
                assertThat(rs.getString(3)).isEqualTo(expected.description());
            }
            // The identity sequence continues after the loaded ids: a plain insert must not collide.
            try (Statement s = a.createStatement()) {
                s.execute("INSERT INTO category (code, name, updated_at) VALUES ('NEW', 'New', now())");
            }
            assertThat(count(a, "SELECT max(id) FROM category")).isEqualTo(21);
            assertThat(count(b, "SELECT count(*) FROM category")).isEqualTo(20);
        }
    }

    /**
     * What the runner does between two cells of a start: the rows an earlier cell wrote, changed or deleted are
     * back as loaded, identities restart after the loaded ids, while the service's pool keeps an idle connection.
     */
    @Test
    void aReloadInPlaceRestoresTheDatasetUnderAnOpenConnection() throws SQLException {
        server.ensureTemplate("reload_template", DatasetSpec.SMALL);
        server.createDatabaseFromTemplate("reload_template", "cell_db");
        try (Connection pool = server.connect("cell_db"); Statement s = pool.createStatement()) {
            pool.setAutoCommit(false);
            s.execute("INSERT INTO item (sku, name, price, stock, category_id, updated_at) "
                    + "VALUES ('WRITTEN', 'by an earlier cell', 1, 1, 1, now())");
            s.execute("UPDATE item SET name = 'changed' WHERE id = 7");
            s.execute("DELETE FROM item WHERE id = 8");
            pool.commit();

            server.reloadDataset("cell_db", DatasetSpec.SMALL);

            assertThat(count(pool, "SELECT count(*) FROM item")).isEqualTo(500);
            assertThat(count(pool, "SELECT count(*) FROM item WHERE sku = 'WRITTEN'")).isZero();
            assertThat(count(pool, "SELECT count(*) FROM item WHERE id = 8")).isEqualTo(1);
            try (ResultSet rs = s.executeQuery("SELECT name FROM item WHERE id = 7")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo(new DatasetGenerator(DatasetSpec.SMALL).item(7).name());
            }
            s.execute("INSERT INTO item (sku, name, price, stock, category_id, updated_at) "
                    + "VALUES ('NEXT', 'after the reload', 1, 1, 1, now())");
            assertThat(count(pool, "SELECT max(id) FROM item")).isEqualTo(501);
            pool.commit();
        }
    }

    @Test
    void aSecondEnsureWithTheSameSpecKeepsTheTemplate() {
        server.ensureTemplate("kept_template", DatasetSpec.SMALL);
        assertThat(server.ensureTemplate("kept_template", DatasetSpec.SMALL)).isNull();
        assertThat(server.ensureTemplate("kept_template", new DatasetSpec(3, 10, 0, 1))).isNotNull();
    }

    @Test
    void loadsTheDefaultSizeWithCopy() {
        DatasetLoader.LoadReport report = server.ensureTemplate("default_template", DatasetSpec.DEFAULT);
        // A figure for the README and the issue note, not an assertion: this box is shared and noisy.
        System.out.printf("[dataset] default size (%d categories, %d items) loaded with COPY in %d ms%n",
                report.categories(), report.items(), report.millis());
        long start = System.nanoTime();
        server.createDatabaseFromTemplate("default_template", "default_clone");
        System.out.printf("[dataset] fresh database cloned from the template in %d ms%n",
                (System.nanoTime() - start) / 1_000_000);
        assertThat(report.items()).isEqualTo(100_000);
    }

    @Test
    void refusesUnsafeDatabaseNames() {
        assertThatThrownBy(() -> server.createDatabaseFromTemplate("small_template", "x; DROP"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void externalRejectsAnUnreachableOrMalformedUrl() {
        assertThatThrownBy(() -> PostgresServer.external("jdbc:mysql://x/y", "u", "p"))
                .hasMessageContaining("not a PostgreSQL JDBC URL");
        assertThatThrownBy(() -> PostgresServer.external("jdbc:postgresql://127.0.0.1:1/postgres", "u", "p"))
                .hasMessageContaining("cannot reach PostgreSQL");
    }

    @Test
    void externalModeDrivesAnyServerByUrl() {
        PostgresServer external = PostgresServer.external(server.jdbcUrl("postgres"), "postgres", "postgres");
        assertThat(external.serverVersion()).startsWith("17.");
        assertThat(external.isEmbedded()).isFalse();
    }

    private static long count(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
