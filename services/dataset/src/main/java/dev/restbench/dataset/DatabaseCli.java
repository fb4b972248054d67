package dev.restbench.dataset;

import java.util.concurrent.CountDownLatch;

/**
 * {@code serve [--port 54329] [--size default|small] [--durable]}: starts the embedded PostgreSQL with database
 * {@code bench} freshly copied from the dataset template, which is what every variant's default DB_URL points at.
 * Runs until interrupted.
 */
public final class DatabaseCli {

    public static final int DEFAULT_PORT = 54329;

    private DatabaseCli() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = DEFAULT_PORT;
        String size = "default";
        boolean durable = false;
        int i = 0;
        if (args.length > 0 && args[0].equals("serve")) {
            i = 1;
        }
        for (; i < args.length; i++) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(value(args, ++i, "--port"));
                case "--size" -> size = value(args, ++i, "--size");
                case "--durable" -> durable = true;
                case "-h", "--help" -> {
                    System.out.println("usage: serve [--port " + DEFAULT_PORT + "] [--size default|small] [--durable]");
                    return;
                }
                default -> fail("unknown option " + args[i]);
            }
        }
        DatasetSpec spec = DatasetSpec.named(size);
        PostgresServer server = PostgresServer.embedded(port, durable);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "stop-postgres"));
        long start = System.nanoTime();
        DatasetLoader.LoadReport report = server.ensureTemplate("bench_template", spec);
        String url = server.createDatabaseFromTemplate("bench_template", "bench");
        System.out.printf("PostgreSQL %s ready in %d ms: %s (user %s, password %s)%n", server.serverVersion(),
                (System.nanoTime() - start) / 1_000_000, url, server.user(), server.password());
        if (report != null) {
            System.out.printf("dataset %s loaded with COPY in %d ms%n", spec.label(), report.millis());
        }
        System.out.println("Ctrl-C to stop.");
        stopped.await();
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
