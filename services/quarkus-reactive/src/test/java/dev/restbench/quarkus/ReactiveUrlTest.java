package dev.restbench.quarkus;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.pgclient.PgConnectOptions;
import org.junit.jupiter.api.Test;

/** DB_URL is a JDBC URL in every variant; the reactive client must read the same server, database and parameters. */
class ReactiveUrlTest {

    @Test
    void theJdbcUrlWithoutItsPrefixIsWhatTheReactiveClientReads() {
        String url = Main.reactiveUrl("jdbc:postgresql://127.0.0.1:54329/bench?application_name=restbench");
        assertThat(url).isEqualTo("postgresql://127.0.0.1:54329/bench?application_name=restbench");

        PgConnectOptions options = PgConnectOptions.fromUri(url);
        assertThat(options.getHost()).isEqualTo("127.0.0.1");
        assertThat(options.getPort()).isEqualTo(54329);
        assertThat(options.getDatabase()).isEqualTo("bench");
    }

    @Test
    void aUrlWithoutThePrefixIsLeftAsItIs() {
        assertThat(Main.reactiveUrl("postgresql://db:5432/bench")).isEqualTo("postgresql://db:5432/bench");
    }
}
