package dev.restbench.dataset;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.postgresql.copy.CopyManager;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Iterator;
import java.util.function.Function;
import java.util.stream.Stream;

/** Loads a dataset with COPY (not row-by-row inserts) into an empty, migrated database. */
public final class DatasetLoader {

    /** Rows per buffer handed to COPY: big enough to amortise calls, small enough to stay out of the old gen. */
    private static final int ROWS_PER_CHUNK = 2_000;

    private DatasetLoader() {
    }

    public record LoadReport(int categories, int items, long millis) {
    }

    public static LoadReport load(Connection connection, DatasetSpec spec) throws SQLException {
        long start = System.nanoTime();
        DatasetGenerator generator = new DatasetGenerator(spec);
        boolean autoCommit = connection.getAutoCommit();
        connection.setAutoCommit(false);
        try {
            CopyManager copy = connection.unwrap(PGConnection.class).getCopyAPI();
            copyRows(copy, "COPY category (id, code, name, updated_at) FROM STDIN (FORMAT csv)",
                    generator.categories(), row -> csv(row.id(), row.code(), row.name(), row.updatedAt()));
            copyRows(copy, "COPY item (id, sku, name, price, stock, description, category_id, updated_at) "
                            + "FROM STDIN (FORMAT csv)",
                    generator.items(), row -> csv(row.id(), row.sku(), row.name(), row.price(), row.stock(),
                            row.description(), row.categoryId(), row.updatedAt()));
            try (Statement statement = connection.createStatement()) {
                // Identity columns must continue after the loaded ids, or the first insert collides.
                statement.execute("SELECT setval(pg_get_serial_sequence('category', 'id'), "
                        + "(SELECT COALESCE(MAX(id), 0) + 1 FROM category), false)");
                statement.execute("SELECT setval(pg_get_serial_sequence('item', 'id'), "
                        + "(SELECT COALESCE(MAX(id), 0) + 1 FROM item), false)");
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        } finally {
            connection.setAutoCommit(autoCommit);
        }
        return new LoadReport(spec.categories(), spec.items(), (System.nanoTime() - start) / 1_000_000);
    }

    private static <T> void copyRows(CopyManager copy, String sql, Stream<T> rows, Function<T, String> toCsv)
            throws SQLException {
        CopyIn in = copy.copyIn(sql);
        try {
            StringBuilder chunk = new StringBuilder(64 * 1024);
            int count = 0;
            for (Iterator<T> it = rows.iterator(); it.hasNext(); ) {
                chunk.append(toCsv.apply(it.next()));
                if (++count % ROWS_PER_CHUNK == 0) {
                    write(in, chunk);
                }
            }
            write(in, chunk);
            in.endCopy();
        } finally {
            if (in.isActive()) {
                in.cancelCopy();
            }
        }
    }

    private static void write(CopyIn in, StringBuilder chunk) throws SQLException {
        if (chunk.length() > 0) {
            byte[] bytes = chunk.toString().getBytes(StandardCharsets.UTF_8);
            in.writeToCopy(bytes, 0, bytes.length);
            chunk.setLength(0);
        }
    }

    static String csv(Object... values) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                line.append(',');
            }
            Object value = values[i];
            if (value == null) {
                continue; // an unquoted empty field is NULL in CSV COPY
            }
            String text = value.toString();
            line.append('"').append(text.replace("\"", "\"\"")).append('"');
        }
        return line.append('\n').toString();
    }
}
