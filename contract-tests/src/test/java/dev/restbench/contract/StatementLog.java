package dev.restbench.contract;

import dev.restbench.dataset.PostgresServer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Counts the SQL statements a variant's backend sessions executed, as PostgreSQL itself logged them
 * ({@code log_statement=all} into a csv log): no instrumentation in the services, the same for every stack.
 *
 * <p>The window is bounded by two marker queries run from the test's own connection, before and after the action.
 * Only statements logged in the variant's own database count, and only data statements (SELECT, INSERT, UPDATE,
 * DELETE, WITH): transaction control, SET/SHOW and the pool's validation queries are not work the endpoint asked
 * for.
 */
final class StatementLog {

    private static final int DATABASE = 2;
    private static final int MESSAGE = 13;
    private static final int APPLICATION = 22;
    private static final String MARKER_APPLICATION = "contract-marker";
    private static final Pattern LOGGED_STATEMENT = Pattern.compile("(?s)^(?:statement|execute [^:]*): (.*)$");
    private static final Set<String> DATA_KEYWORDS = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "WITH");
    private static final Set<String> TRANSACTION_KEYWORDS = Set.of("BEGIN", "START", "COMMIT", "END", "ROLLBACK",
            "ABORT");
    private static final Pattern FIRST_WORD = Pattern.compile("^\\s*([A-Za-z]+)");
    private static final Pattern VALIDATION_QUERY = Pattern.compile("(?i)^\\s*SELECT\\s+1\\s*;?\\s*$");

    private final PostgresServer server;
    private final Path directory;

    StatementLog(PostgresServer server, Path directory) {
        this.server = server;
        this.directory = directory;
    }

    /**
     * What one request made its database sessions execute: the data statements, and the transaction control
     * statements (BEGIN, COMMIT, ROLLBACK) in log order.
     */
    record Window(List<String> data, List<String> transactionControl) {

        long count(String command) {
            return transactionControl.stream()
                    .filter(sql -> firstWord(sql).equals(command))
                    .count();
        }

        /**
         * Round trips spent on transaction control. pgjdbc sends BEGIN in the same message batch as the first
         * statement of the transaction (one network exchange for both), so a BEGIN costs none; a COMMIT or
         * ROLLBACK is an exchange of its own.
         */
        long transactionRoundTrips() {
            return count("COMMIT") + count("ROLLBACK");
        }
    }

    /** The data and transaction control statements executed in {@code database} while {@code action} ran. */
    Window statements(String database, Runnable action) {
        String before = mark();
        action.run();
        String after = mark();
        List<List<String>> records = awaitRecordsUpTo(after);
        List<String> data = new ArrayList<>();
        List<String> transactionControl = new ArrayList<>();
        boolean inWindow = false;
        for (List<String> record : records) {
            if (isMarker(record, before)) {
                inWindow = true;
            } else if (isMarker(record, after)) {
                break;
            } else if (inWindow && database.equals(record.get(DATABASE))) {
                String sql = loggedSql(record.get(MESSAGE));
                if (sql != null && isDataStatement(sql)) {
                    data.add(sql.strip());
                } else if (sql != null && isTransactionControl(sql)) {
                    transactionControl.add(sql.strip());
                }
            }
        }
        if (!inWindow) {
            throw new IllegalStateException("start marker " + before + " not found in the statement log");
        }
        return new Window(data, transactionControl);
    }

    /** BEGIN (also {@code BEGIN READ ONLY}, which pgjdbc sends for a read-only connection), COMMIT, ROLLBACK. */
    static boolean isTransactionControl(String sql) {
        return TRANSACTION_KEYWORDS.contains(firstWord(sql));
    }

    private static String firstWord(String sql) {
        Matcher word = FIRST_WORD.matcher(sql);
        return word.find() ? word.group(1).toUpperCase(Locale.ROOT) : "";
    }

    static boolean isDataStatement(String sql) {
        if (VALIDATION_QUERY.matcher(sql).matches()) {
            return false;
        }
        String trimmed = sql.stripLeading();
        while (trimmed.startsWith("(")) {
            trimmed = trimmed.substring(1).stripLeading();
        }
        return DATA_KEYWORDS.contains(firstWord(trimmed));
    }

    static String loggedSql(String message) {
        Matcher matcher = LOGGED_STATEMENT.matcher(message);
        return matcher.matches() ? matcher.group(1) : null;
    }

    private String mark() {
        String marker = "contract-marker-" + UUID.randomUUID();
        try (Connection connection = server.connect("postgres")) {
            connection.setClientInfo("ApplicationName", MARKER_APPLICATION);
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT '" + marker + "'");
            }
        } catch (SQLException e) {
            throw new IllegalStateException("cannot run the marker query", e);
        }
        return marker;
    }

    private static boolean isMarker(List<String> record, String marker) {
        return MARKER_APPLICATION.equals(record.get(APPLICATION)) && record.get(MESSAGE).contains(marker);
    }

    /** The logging collector writes asynchronously: wait until the closing marker has reached the file. */
    private List<List<String>> awaitRecordsUpTo(String marker) {
        for (int attempt = 0; attempt < 300; attempt++) {
            List<List<String>> records = readAll();
            if (records.stream().anyMatch(record -> record.size() > APPLICATION && isMarker(record, marker))) {
                return records;
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        throw new IllegalStateException("marker " + marker + " never appeared in the csv log under " + directory);
    }

    private List<List<String>> readAll() {
        List<List<String>> records = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".csv")).sorted().toList()) {
                for (List<String> record : CsvLog.parse(Files.readString(file, StandardCharsets.UTF_8))) {
                    if (record.size() > APPLICATION) {
                        records.add(record);
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the csv log under " + directory, e);
        }
        return records;
    }
}
