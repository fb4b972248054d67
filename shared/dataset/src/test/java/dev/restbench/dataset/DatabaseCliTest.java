package dev.restbench.dataset;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseCliTest {

    /** What `./bench db` promises a script waiting for its line: the URL it prints is usable at once. */
    @Test
    void theUrlIsPrintedOnlyOnceTheDatabaseHoldsTheDataset() throws Exception {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        try (PostgresServer server = DatabaseCli.open(0, false, DatasetSpec.SMALL,
                new PrintStream(printed, true, StandardCharsets.UTF_8))) {
            String text = printed.toString(StandardCharsets.UTF_8);
            Matcher url = Pattern.compile("ready in \\d+ ms: (jdbc:postgresql://\\S+/bench) ").matcher(text);
            assertThat(url.find()).as(text).isTrue();
            try (Connection bench = DriverManager.getConnection(url.group(1), server.user(), server.password());
                 Statement statement = bench.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT count(*), (SELECT count(*) FROM category) FROM item")) {
                rows.next();
                assertThat(rows.getLong(1)).isEqualTo(DatasetSpec.SMALL.items());
                assertThat(rows.getLong(2)).isEqualTo(DatasetSpec.SMALL.categories());
            }
        }
    }
}
