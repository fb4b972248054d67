package dev.restbench.runner.db;

import dev.restbench.dataset.DatabaseCli;
import dev.restbench.runner.Command;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code ./bench db}: the embedded PostgreSQL with database {@code bench} (the dataset freshly copied from its
 * template) on 127.0.0.1:54329 — what every variant's default DB_URL points at, for starting a variant by hand.
 */
public final class DbCommand implements Command {

    @Override
    public String summary() {
        return "start the embedded PostgreSQL with the dataset on 127.0.0.1:54329 (the variants' default DB_URL)";
    }

    @Override
    public String help() {
        return """
                usage: ./bench db [--port 54329] [--size default|small] [--durable]
                       ./bench db load --url jdbc:postgresql://host:port/postgres [--user u] [--password p] [--size …]

                Without a subcommand: starts the embedded PostgreSQL (real binaries from Maven Central), builds the
                dataset template (COPY; 2,000 categories and 100,000 items by default) and creates database `bench`
                from it, then runs until Ctrl-C. User and password: postgres/postgres.
                `load` builds the same dataset on an existing server instead (needs CREATEDB).
                --durable turns fsync and synchronous_commit on, as benchmark runs do.""";
    }

    @Override
    public int run(List<String> args) throws Exception {
        List<String> cliArgs = new ArrayList<>(args);
        if (cliArgs.isEmpty() || cliArgs.get(0).startsWith("-")) {
            cliArgs.add(0, "serve");
        }
        DatabaseCli.main(cliArgs.toArray(String[]::new));
        return 0;
    }
}
