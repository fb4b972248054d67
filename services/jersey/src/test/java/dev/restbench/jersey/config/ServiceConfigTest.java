package dev.restbench.jersey.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ServiceConfigTest {

    @Test
    void defaultsMatchTheArchitecture() {
        ServiceConfig config = ServiceConfig.from(Map.of(), new Properties());

        assertThat(config).isEqualTo(new ServiceConfig("127.0.0.1", 8081,
                "jdbc:postgresql://127.0.0.1:54329/bench", "postgres", "postgres", 16, 64, 65536));
    }

    @Test
    void systemPropertiesWinOverEnvironmentVariables() {
        Properties properties = new Properties();
        properties.setProperty("db.pool.size", "8");

        ServiceConfig config = ServiceConfig.from(Map.of("DB_POOL_SIZE", "32", "HTTP_THREADS", "100"), properties);

        assertThat(config.dbPoolSize()).isEqualTo(8);
        assertThat(config.httpThreads()).isEqualTo(100);
    }

    @Test
    void badValuesNameTheVariable() {
        assertThatThrownBy(() -> ServiceConfig.from(Map.of("PORT", "eighty"), new Properties()))
                .hasMessageContaining("PORT must be an integer");
        assertThatThrownBy(() -> ServiceConfig.from(Map.of("DB_POOL_SIZE", "0"), new Properties()))
                .hasMessageContaining("DB_POOL_SIZE must be at least 1");
    }
}
