package dev.restbench.runner.db;

import dev.restbench.dataset.DatabaseCli;
import dev.restbench.dataset.DatasetSpec;
import dev.restbench.runner.Converters;
import dev.restbench.runner.UsageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.concurrent.Callable;

/**
 * {@code ./bench db}: the embedded PostgreSQL with database {@code bench} (the dataset freshly copied from its
 * template) on 127.0.0.1:54329 — what every variant's default DB_URL points at, for starting a variant by hand.
 */
@Command(name = "db",
        header = "start the embedded PostgreSQL with the dataset on 127.0.0.1:54329 (the variants' default DB_URL)",
        customSynopsis = {"./bench db [--port 54329] [--size default|small] [--durable]",
                "       ./bench db load --url jdbc:postgresql://host:port/postgres [--user u] [--password p] [--size …]"},
        description = {"Without a subcommand: starts the embedded PostgreSQL (real binaries from Maven Central), builds"
                + " the dataset template (COPY; 2,000 categories and 100,000 items by default) and creates database"
                + " `bench` from it, then runs until Ctrl-C. User and password: postgres/postgres.",
                "`load` builds the same dataset on an existing server instead (needs CREATEDB)."},
        subcommands = DbCommand.Load.class)
public final class DbCommand implements Callable<Integer> {

    @Option(names = "--port", paramLabel = "<n>", converter = Converters.ListenPort.class,
            description = "port to listen on (default 54329; 0: a free one)")
    private int port = DatabaseCli.DEFAULT_PORT;

    @Option(names = "--size", paramLabel = "default|small",
            description = "the dataset: default (2,000 categories, 100,000 items) or small")
    private String size = "default";

    @Option(names = "--durable", arity = "0", description = "fsync and synchronous_commit on, as benchmark runs do")
    private boolean durable;

    @Override
    public Integer call() throws Exception {
        DatabaseCli.serve(port, durable, spec(size));
        return 0;
    }

    @Command(name = "load", header = "build the dataset on an existing PostgreSQL server (needs CREATEDB)",
            description = "Builds the dataset template on the server and (re)creates database `bench` from it, then"
                    + " exits (the compose stack's one-shot dataset service does the same).")
    static final class Load implements Callable<Integer> {

        @Option(names = "--url", paramLabel = "<url>", required = true,
                description = "the server, e.g. jdbc:postgresql://host:5432/postgres")
        private String url;

        @Option(names = "--user", paramLabel = "<user>", description = "(default postgres)")
        private String user = "postgres";

        @Option(names = "--password", paramLabel = "<password>", description = "(default postgres)")
        private String password = "postgres";

        @Option(names = "--size", paramLabel = "default|small",
                description = "the dataset: default (2,000 categories, 100,000 items) or small")
        private String size = "default";

        @Override
        public Integer call() {
            DatabaseCli.load(url, user, password, spec(size));
            return 0;
        }
    }

    private static DatasetSpec spec(String size) {
        try {
            return DatasetSpec.named(size);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
