package dev.restbench.dataset;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Against a real PostgreSQL (the embedded binaries), never a stand-in. */
class StatementStatisticsTest {

    @Test
    void countsTheDataStatementsOfOneDatabaseAndTheirRows() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false);
             StatementStatistics statistics = StatementStatistics.open(server)) {
            assertThat(statistics.available()).as(statistics.unavailableReason()).isTrue();
            server.ensureTemplate("small_template", DatasetSpec.SMALL);
            server.createDatabaseFromTemplate("small_template", "cell");
            server.createDatabaseFromTemplate("small_template", "other");

            StatementStatistics.Counts before = statistics.read("cell");
            try (Connection cell = server.connect("cell"); Connection other = server.connect("other")) {
                cell.setAutoCommit(false);
                try (PreparedStatement page = cell.prepareStatement("SELECT id FROM item ORDER BY id LIMIT ?")) {
                    for (int size : new int[]{5, 7}) {
                        page.setInt(1, size);
                        drain(page.executeQuery());
                    }
                }
                execute(cell, "UPDATE item SET price = price + 1 WHERE id <= 3");
                execute(cell, "SET LOCAL work_mem = '8MB'");
                execute(cell, "SELECT 1");
                cell.commit();
                cell.setAutoCommit(true);
                execute(cell, "WITH c AS (SELECT id FROM category ORDER BY id LIMIT 2) SELECT * FROM c");
                execute(other, "SELECT id FROM item LIMIT 50");
            }
            StatementStatistics.Counts ran = statistics.read("cell").minus(before);

            // 2 SELECTs (5 + 7 rows), one UPDATE (3 rows), one WITH (2 rows); BEGIN/COMMIT, SET, the validation
            // query, the other database's SELECT and the readings themselves do not count.
            assertThat(ran.statements()).isEqualTo(4);
            assertThat(ran.rows()).isEqualTo(17);
            assertThat(ran.blocks()).as("the pages those four touched").isPositive();
        }
    }

    /**
     * The pages a statement touched are its plan's work: a read by primary key touches its index's path and one heap
     * page, the same read without the index (a sequential scan) every page of the table, whatever the host's speed.
     */
    @Test
    void countsThePagesAPlanTouched() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false);
             StatementStatistics statistics = StatementStatistics.open(server)) {
            server.ensureTemplate("small_template", DatasetSpec.SMALL);
            server.createDatabaseFromTemplate("small_template", "cell");
            try (Connection cell = server.connect("cell")) {
                long tablePages = single(cell, "SELECT pg_relation_size('item') / current_setting('block_size')::int");
                assertThat(tablePages).as("a table of several pages").isGreaterThan(8);

                // Each once first: a connection's first statement on a table reads the system catalogues too.
                execute(cell, "SELECT * FROM item WHERE id = 8");
                execute(cell, "SELECT * FROM item WHERE price + 0 = -2");

                StatementStatistics.Counts before = statistics.read("cell");
                execute(cell, "SELECT * FROM item WHERE id = 7");
                long byIndex = statistics.read("cell").minus(before).blocks();

                before = statistics.read("cell");
                execute(cell, "SELECT * FROM item WHERE price + 0 = -1");
                long byScan = statistics.read("cell").minus(before).blocks();

                assertThat(byIndex).as("the index's root-to-leaf path and one heap page").isBetween(2L, 5L);
                assertThat(byScan).as("every page of the table").isGreaterThanOrEqualTo(tablePages);
            }
        }
    }

    /**
     * The text is the statement's, constants replaced: the same statement with other constants sums the same bytes per
     * call, and another statement with the same count, rows and pages (a sort added over one row) sums more.
     */
    @Test
    void sumsTheNormalisedTextOfEveryCall() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false);
             StatementStatistics statistics = StatementStatistics.open(server)) {
            server.ensureTemplate("small_template", DatasetSpec.SMALL);
            server.createDatabaseFromTemplate("small_template", "cell");
            try (Connection cell = server.connect("cell")) {
                execute(cell, "SELECT id, name FROM category WHERE id = 1");
                execute(cell, "SELECT id, name FROM category WHERE id = 2 ORDER BY name");

                StatementStatistics.Counts before = statistics.read("cell");
                execute(cell, "SELECT id, name FROM category WHERE id = 3");
                StatementStatistics.Counts one = statistics.read("cell").minus(before);

                before = statistics.read("cell");
                execute(cell, "SELECT id, name FROM category WHERE id = 12345");
                execute(cell, "SELECT id, name FROM category WHERE id = 4");
                StatementStatistics.Counts two = statistics.read("cell").minus(before);

                before = statistics.read("cell");
                execute(cell, "SELECT id, name FROM category WHERE id = 5 ORDER BY name");
                StatementStatistics.Counts sorted = statistics.read("cell").minus(before);

                assertThat(one.textBytes()).as("the normalised text").isEqualTo(
                        "SELECT id, name FROM category WHERE id = $1".length());
                assertThat(two.textBytes()).as("other constants, the same text per call").isEqualTo(2 * one.textBytes());
                assertThat(sorted.statements()).isEqualTo(one.statements());
                assertThat(sorted.rows()).isEqualTo(one.rows());
                assertThat(sorted.blocks()).as("one row, the same pages").isEqualTo(one.blocks());
                assertThat(sorted.textBytes()).isEqualTo(one.textBytes() + " ORDER BY name".length());
            }
        }
    }

    /**
     * The planner runs once per call of a statement sent unprepared, and not at all for a prepared one reusing its
     * cached plan: the same statements, rows, pages and text, and less of PostgreSQL's work per call.
     */
    @Test
    void countsThePlannersRunsWhichPreparedStatementsSkip() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false);
             StatementStatistics statistics = StatementStatistics.open(server)) {
            assertThat(statistics.tracksPlanning()).isTrue();
            server.ensureTemplate("small_template", DatasetSpec.SMALL);
            server.createDatabaseFromTemplate("small_template", "cell");
            try (Connection cell = server.connect("cell");
                 PreparedStatement prepared = cell.prepareStatement("SELECT id, name FROM category WHERE id = ?")) {
                // The driver prepares on the server from the 5th call (pgjdbc's prepareThreshold), and PostgreSQL
                // keeps a generic plan after 5 custom ones: 20 calls leave it cached.
                for (int i = 1; i <= 20; i++) {
                    prepared.setInt(1, i);
                    drain(prepared.executeQuery());
                }
                StatementStatistics.Counts before = statistics.read("cell");
                for (int i = 1; i <= 10; i++) {
                    prepared.setInt(1, i);
                    drain(prepared.executeQuery());
                }
                StatementStatistics.Counts reused = statistics.read("cell").minus(before);

                before = statistics.read("cell");
                for (int i = 1; i <= 10; i++) {
                    execute(cell, "SELECT id, name FROM category WHERE id = " + i);
                }
                StatementStatistics.Counts unprepared = statistics.read("cell").minus(before);

                assertThat(reused.statements()).isEqualTo(10);
                assertThat(unprepared.statements()).isEqualTo(10);
                assertThat(unprepared.rows()).isEqualTo(reused.rows());
                assertThat(unprepared.textBytes()).as("the same normalised text").isEqualTo(reused.textBytes());
                assertThat(reused.plans()).as("the cached plan, reused").isZero();
                assertThat(unprepared.plans()).as("one plan per call").isEqualTo(10);
            }
        }
    }

    @Test
    void aServerNotTrackingPlanningHasNoPlansNotZero() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false,
                Map.of("pg_stat_statements.track_planning", "off"));
             StatementStatistics statistics = StatementStatistics.open(server)) {
            assertThat(statistics.available()).as(statistics.unavailableReason()).isTrue();
            assertThat(statistics.tracksPlanning()).isFalse();
            assertThat(statistics.read(server.adminDatabase()).plans()).isNull();
        }
    }

    /**
     * An extension older than 1.8 has no plans column, whatever the setting says (a server upgraded without ALTER
     * EXTENSION … UPDATE): the other four counts are read, the plans are absent.
     */
    @Test
    void anExtensionWithoutThePlansColumnStillCountsTheStatements() throws SQLException {
        try (PostgresServer server = PostgresServer.embedded(0, false)) {
            try (Connection admin = server.connect(server.adminDatabase())) {
                execute(admin, "CREATE EXTENSION pg_stat_statements VERSION '1.7'");
            }
            try (StatementStatistics statistics = StatementStatistics.open(server)) {
                assertThat(statistics.available()).as(statistics.unavailableReason()).isTrue();
                assertThat(statistics.tracksPlanning()).isFalse();
                StatementStatistics.Counts before = statistics.read(server.adminDatabase());
                try (Connection admin = server.connect(server.adminDatabase())) {
                    execute(admin, "SELECT 1 + 1");
                }
                StatementStatistics.Counts ran = statistics.read(server.adminDatabase()).minus(before);
                assertThat(ran.statements()).isEqualTo(1);
                assertThat(ran.plans()).isNull();
            }
        }
    }

    private static long single(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rs = statement.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void aServerWithoutTheExtensionGivesAReasonNotZeros() {
        try (PostgresServer server = PostgresServer.embedded(0, false, Map.of("shared_preload_libraries", ""));
             StatementStatistics statistics = StatementStatistics.open(server)) {
            assertThat(statistics.available()).isFalse();
            assertThat(statistics.unavailableReason()).contains("pg_stat_statements").contains("shared_preload_libraries");
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            if (statement.execute(sql)) {
                drain(statement.getResultSet());
            }
        }
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            while (rs.next()) {
                rs.getObject(1);
            }
        }
    }
}
