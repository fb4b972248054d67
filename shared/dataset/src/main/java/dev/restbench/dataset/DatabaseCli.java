package dev.restbench.dataset;

import java.io.PrintStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;

/**
 * Two commands:
 * <ul>
 *   <li>{@code serve [--port 54329] [--size default|small] [--durable]}: starts the embedded PostgreSQL with
 *   database {@code bench} freshly copied from the dataset template, which is what every variant's default DB_URL
 *   points at. Runs until interrupted.</li>
 *   <li>{@code load --url jdbc:postgresql://host:port/postgres [--user u] [--password p] [--size default|small]}:
 *   builds the template on an existing server and (re)creates {@code bench} from it, then exits (the compose
 *   stack's one-shot dataset service).</li>
 * </ul>
 */
public final class DatabaseCli {

    public static final int DEFAULT_PORT = 54329;

    private DatabaseCli() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = DEFAULT_PORT;
        String size = "default";
        boolean durable = false;
        String url = null;
        String user = "postgres";
        String password = "postgres";
        int i = 0;
        String command = "serve";
        if (args.length > 0 && !args[0].startsWith("-")) {
            command = args[0];
            i = 1;
        }
        for (; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = port(value(args, ++i, "--port"));
                case "--size" -> size = value(args, ++i, "--size");
                case "--durable" -> durable = true;
                case "--url" -> url = value(args, ++i, "--url");
                case "--user" -> user = value(args, ++i, "--user");
                case "--password" -> password = value(args, ++i, "--password");
                case "-h", "--help" -> {
                    System.out.println("usage: serve [--port " + DEFAULT_PORT + "] [--size default|small] [--durable]\n"
                            + "       load --url jdbc:postgresql://host:port/postgres [--user u] [--password p] "
                            + "[--size default|small]");
                    return;
                }
                default -> fail("unknown option " + args[i]);
            }
        }
        DatasetSpec spec = null;
        try {
            spec = DatasetSpec.named(size);
        } catch (IllegalArgumentException e) {
            fail(e.getMessage());
        }
        switch (command) {
            case "serve" -> serve(port, durable, spec);
            case "load" -> load(url, user, password, spec);
            default -> fail("unknown command " + command + " (serve or load)");
        }
    }

    /** {@code load}: the dataset on an existing server, database {@code bench} (re)created from its template. */
    public static void load(String url, String user, String password, DatasetSpec spec) {
        if (url == null) {
            fail("load needs --url");
        }
        PostgresServer server = PostgresServer.external(url, user, password);
        long start = System.nanoTime();
        DatasetLoader.LoadReport report = server.ensureTemplate("bench_template", spec);
        String bench = server.createDatabaseFromTemplate("bench_template", "bench");
        System.out.printf("PostgreSQL %s: %s ready in %d ms (%s)%n", server.serverVersion(), bench,
                (System.nanoTime() - start) / 1_000_000,
                report == null ? "template already current" : "dataset loaded with COPY in " + report.millis() + " ms");
    }

    /** {@code serve}: the embedded server with database {@code bench}, until the JVM is stopped. */
    public static void serve(int port, boolean durable, DatasetSpec spec) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        PostgresServer server = open(port, durable, spec, System.out);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stop-postgres"));
        System.out.println("Ctrl-C to stop.");
        stopped.await();
    }

    /**
     * Starts the embedded server with database {@code bench} and prints its JDBC URL only once {@code bench} holds
     * the dataset, read back through a fresh connection: a script or a person starting a variant as soon as the line
     * appears must find the database there.
     */
    static PostgresServer open(int port, boolean durable, DatasetSpec spec, PrintStream out) {
        PostgresServer server = PostgresServer.embedded(port, durable);
        try {
            long start = System.nanoTime();
            DatasetLoader.LoadReport report = server.ensureTemplate("bench_template", spec);
            String url = server.createDatabaseFromTemplate("bench_template", "bench");
            long items = countItems(server);
            if (items != spec.items()) {
                throw new IllegalStateException("database bench holds " + items + " items, not the dataset's " + spec.items());
            }
            out.printf("PostgreSQL %s ready in %d ms: %s (user %s, password %s)%n", server.serverVersion(),
                    (System.nanoTime() - start) / 1_000_000, url, server.user(), server.password());
            if (report != null) {
                out.printf("dataset %s loaded with COPY in %d ms%n", spec.label(), report.millis());
            }
            return server;
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
    }

    private static long countItems(PostgresServer server) {
        try (Connection bench = server.connect("bench"); Statement statement = bench.createStatement();
             ResultSet rows = statement.executeQuery("SELECT count(*) FROM item")) {
            rows.next();
            return rows.getLong(1);
        } catch (SQLException e) {
            throw new IllegalStateException("database bench is not readable after its creation: " + e.getMessage(), e);
        }
    }

    private static int port(String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 0 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        fail("--port must be a number from 0 to 65535, got '" + text + "'");
        return -1;
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            fail(option + " needs a value");
        }
        return args[index];
    }

    private static void fail(String message) {
        System.err.println(message);
        System.exit(2);
    }
}
