package dev.restbench.dataset;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link PostgresServer#embeddedWithPasswords}, for services that run as another OS user, on a real PostgreSQL: the
 * superuser is reachable only with its random password (not with the embedded default, which trusts any local
 * login), and the services' role reads and writes the rows of a clone of the template and nothing more: no schema
 * change, no superuser's {@code COPY … TO PROGRAM} (which runs a program as the server's OS user).
 */
class PostgresServerPasswordsTest {

    private static PostgresServer server;

    @BeforeAll
    static void start() {
        server = PostgresServer.embeddedWithPasswords(0, false);
        server.ensureTemplate("pw_template", DatasetSpec.SMALL);
        server.createDatabaseFromTemplate("pw_template", "pw_cell");
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static Connection login(String user, String password) throws SQLException {
        return DriverManager.getConnection(server.jdbcUrl("pw_cell"), user, password);
    }

    @Test
    void theSuperuserNeedsItsRandomPasswordAndTheServicesGetARoleOfTheirOwn() throws SQLException {
        assertThat(server.user()).isEqualTo("postgres");
        assertThat(server.password()).hasSize(48).isNotEqualTo("postgres");
        assertThat(server.serviceUser()).isEqualTo(PostgresServer.SERVICE_ROLE);
        assertThat(server.servicePassword()).hasSize(48).isNotEqualTo(server.password());
        for (String guess : new String[] {"postgres", "any", server.servicePassword()}) {
            assertThatThrownBy(() -> login("postgres", guess).close()).isInstanceOf(SQLException.class)
                    .hasMessageContaining("password authentication failed");
        }
        assertThatThrownBy(() -> login(PostgresServer.SERVICE_ROLE, "postgres").close())
                .hasMessageContaining("password authentication failed");
        try (Connection admin = login("postgres", server.password())) {
            assertThat(scalar(admin, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).isEqualTo("t");
        }
    }

    @Test
    void theServicesRoleReadsAndWritesRowsAndNothingElse() throws SQLException {
        try (Connection service = login(server.serviceUser(), server.servicePassword());
             Statement s = service.createStatement()) {
            assertThat(scalar(service, "SELECT count(*) FROM item")).isEqualTo("500");
            s.execute("INSERT INTO category (code, name, updated_at) VALUES ('SVC', 'Service', now())");
            s.execute("UPDATE item SET stock = stock + 1 WHERE id = 1");
            s.execute("DELETE FROM category WHERE code = 'SVC'");
            assertThat(scalar(service, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")).isEqualTo("f");
            for (String forbidden : new String[] {
                    "COPY (SELECT 1) TO PROGRAM 'true'",
                    "COPY item FROM '/etc/hostname'",
                    "CREATE TABLE planted (id int)",
                    "ALTER TABLE item ADD COLUMN planted int",
                    "DROP TABLE item",
                    "ALTER ROLE postgres PASSWORD 'mine'",
                    "CREATE DATABASE planted"}) {
                assertThatThrownBy(() -> s.execute(forbidden)).as(forbidden).isInstanceOf(SQLException.class)
                        .hasMessageMatching("(?s).*(permission denied|must be owner).*");
            }
        }
    }

    private static String scalar(Connection connection, String sql) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1);
        }
    }
}
