package dev.restbench.dataset;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * The SQL statements a database executed, the rows they returned or changed and the buffer pages they touched,
 * counted by PostgreSQL itself (pg_stat_statements), so a window's count per request needs no instrumentation in any
 * service and is the same for every stack. Only data statements count (SELECT, INSERT, UPDATE, DELETE, WITH, MERGE,
 * VALUES, TABLE): transaction control, SET/SHOW and a pool's {@code SELECT 1} validation are not work the endpoint
 * asked for (the contract tests' statement log applies the same rule), and neither is this class's own query.
 *
 * <p>Counters only grow while the server runs (a statement is counted when it completes), so the difference of two
 * readings is what ran in between. An entry evicted from the extension's table (more than
 * {@code pg_stat_statements.max} distinct statements) would lose counts; the services here issue a few dozen.
 */
public final class StatementStatistics implements AutoCloseable {

    /**
     * What the embedded server starts with: the extension loaded, top-level statements only (a function's inner
     * statements are not the service's), utility statements left out (fewer entries to scan at every reading), and
     * the planner's runs counted: a service that prepares its statements (or stops) changes PostgreSQL's work per
     * request without another statement, row, page or text, and only the plans show it.
     */
    public static final Map<String, String> SERVER_SETTINGS = Map.of(
            "shared_preload_libraries", "pg_stat_statements",
            "pg_stat_statements.track", "top",
            "pg_stat_statements.track_utility", "off",
            "pg_stat_statements.track_planning", "on");

    /**
     * The setting on, and the view has the column: {@code plans} came with the extension's version 1.8 (PostgreSQL
     * 13), and a server upgraded without {@code ALTER EXTENSION … UPDATE} keeps the older view.
     */
    private static final String TRACKS_PLANNING = """
            SELECT coalesce(current_setting('pg_stat_statements.track_planning', true), 'off') = 'on'
               AND EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass('pg_stat_statements')
                           AND attname = 'plans' AND NOT attisdropped)""";

    private static final String SUMS = """
            SELECT coalesce(sum(s.calls), 0), coalesce(sum(s.rows), 0),
                   coalesce(sum(s.shared_blks_hit + s.shared_blks_read + s.local_blks_hit + s.local_blks_read
                                + s.temp_blks_read + s.temp_blks_written), 0),
                   coalesce(sum(s.calls * octet_length(s.query)), 0), {plans}
            FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
            WHERE d.datname = ?
              AND s.query ~* '^\\s*(select|insert|update|delete|with|merge|values|table)\\M'
              AND s.query !~* '^\\s*select\\s+\\$1\\s*;?\\s*$'
              AND s.query NOT ILIKE '%pg_stat_statements%'""";

    /**
     * Statements completed, the rows they returned or affected, the pages they touched, and the bytes of their
     * normalised text, since the server's statistics began. {@code blocks} counts every page a statement read or
     * wrote: shared buffers found in the cache or read in, a temporary table's, and a sort's or hash's spilled to disk.
     * It is PostgreSQL's work per statement in a unit no host can stretch: another plan (an index used or dropped, a
     * join order) moves it, while the same statements on a slower host do not. {@code textBytes} sums each
     * statement's text (constants replaced by $n, as the extension keeps it) once per call: the same statements
     * give the same sum, and another statement with the same count, rows and pages (a sort added or dropped, another
     * filter or column) moves it. {@code plans} counts the planner's runs for those statements: one per call for a
     * statement sent unprepared, none for a prepared one that reuses its cached generic plan; null where the server
     * does not track planning ({@code pg_stat_statements.track_planning} off), never 0 for "not counted".
     */
    public record Counts(long statements, long rows, long blocks, long textBytes, Long plans) {

        /** Counts on a server that does not track planning. */
        public Counts(long statements, long rows, long blocks, long textBytes) {
            this(statements, rows, blocks, textBytes, null);
        }

        public Counts minus(Counts earlier) {
            return new Counts(statements - earlier.statements, rows - earlier.rows, blocks - earlier.blocks,
                    textBytes - earlier.textBytes,
                    plans == null || earlier.plans == null ? null : plans - earlier.plans);
        }
    }

    private final Connection connection;
    private final PreparedStatement sums;
    private final String unavailable;
    private final boolean tracksPlanning;

    private StatementStatistics(Connection connection, PreparedStatement sums, String unavailable,
                                boolean tracksPlanning) {
        this.connection = connection;
        this.sums = sums;
        this.unavailable = unavailable;
        this.tracksPlanning = tracksPlanning;
    }

    /**
     * Opens a reader on the server's administration database, creating the extension there if it is loaded but not
     * yet created. Never throws: a server without the extension (an external one not configured for it, a user
     * allowed neither to create it nor to read other users' statements) gives a reader that is {@link #available()}
     * false and says why, and the statement metrics are then left out rather than written as 0.
     */
    public static StatementStatistics open(PostgresServer server) {
        Connection connection = null;
        try {
            connection = server.connect(server.adminDatabase());
            try (Statement create = connection.createStatement()) {
                create.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            }
            boolean tracksPlanning;
            try (Statement setting = connection.createStatement();
                 ResultSet rs = setting.executeQuery(TRACKS_PLANNING)) {
                rs.next();
                tracksPlanning = rs.getBoolean(1);
            }
            // Without planning tracked the column may not exist: the other four counts must not fail with it.
            PreparedStatement sums = connection.prepareStatement(SUMS.replace("{plans}",
                    tracksPlanning ? "coalesce(sum(s.plans), 0)" : "NULL::bigint"));
            // The first reading proves the library is loaded (the view errors otherwise) and the user may read it.
            StatementStatistics statistics = new StatementStatistics(connection, sums, null, tracksPlanning);
            statistics.read(server.adminDatabase());
            return statistics;
        } catch (SQLException e) {
            closeQuietly(connection);
            return new StatementStatistics(null, null, "pg_stat_statements is not readable on this server ("
                    + e.getMessage().lines().findFirst().orElse("") + "): load it with shared_preload_libraries"
                    + " and let the runner's user create it or read it (pg_read_all_stats)", false);
        }
    }

    public boolean available() {
        return unavailable == null;
    }

    /**
     * Whether the server counts the planner's runs ({@code pg_stat_statements.track_planning}): without it the counts
     * have no plans, and an A/B cannot show PostgreSQL's work per request unchanged (docs/method.md).
     */
    public boolean tracksPlanning() {
        return tracksPlanning;
    }

    /** Why the counts are unavailable; null when they are. */
    public String unavailableReason() {
        return unavailable;
    }

    /** The data statements completed in {@code database} so far, their rows, pages, text and plans. */
    public Counts read(String database) throws SQLException {
        if (unavailable != null) {
            throw new IllegalStateException(unavailable);
        }
        synchronized (sums) {
            sums.setString(1, database);
            try (ResultSet rs = sums.executeQuery()) {
                rs.next();
                return new Counts(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4),
                        tracksPlanning ? rs.getLong(5) : null);
            }
        }
    }

    @Override
    public void close() {
        closeQuietly(connection);
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException e) {
                // nothing left to release
            }
        }
    }
}
