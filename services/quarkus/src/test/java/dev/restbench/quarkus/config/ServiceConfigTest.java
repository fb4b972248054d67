package dev.restbench.quarkus.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServiceConfigTest {

    @Test
    void defaultsWhenNothingIsSet() {
        ServiceConfig config = ServiceConfig.from(Map.of(), new Properties());
        assertThat(config).isEqualTo(new ServiceConfig("127.0.0.1", 8084, "jdbc:postgresql://127.0.0.1:54329/bench",
                "postgres", "postgres", 16, 64, 65536));
    }

    @Test
    void environmentThenSystemPropertyOfTheDottedName() {
        Properties properties = new Properties();
        properties.setProperty("db.pool.size", "8");
        ServiceConfig config = ServiceConfig.from(Map.of("PORT", "0", "DB_POOL_SIZE", "4", "HTTP_THREADS", " 32 ",
                "MAX_BODY_BYTES", "1024", "DB_URL", "jdbc:postgresql://db/x"), properties);
        assertThat(config.port()).isZero();
        assertThat(config.dbPoolSize()).isEqualTo(8);
        assertThat(config.httpThreads()).isEqualTo(32);
        assertThat(config.maxBodyBytes()).isEqualTo(1024);
        assertThat(config.dbUrl()).isEqualTo("jdbc:postgresql://db/x");
    }

    @Test
    void namesTheBadVariable() {
        assertThatThrownBy(() -> ServiceConfig.from(Map.of("PORT", "abc"), new Properties()))
                .hasMessageContaining("PORT");
        assertThatThrownBy(() -> ServiceConfig.from(Map.of("DB_POOL_SIZE", "0"), new Properties()))
                .hasMessageContaining("DB_POOL_SIZE");
        assertThatThrownBy(() -> ServiceConfig.from(Map.of("HTTP_THREADS", "99999999999"), new Properties()))
                .hasMessageContaining("HTTP_THREADS");
    }
}
