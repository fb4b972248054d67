package dev.restbench.webflux.system;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatabaseConfigurationTest {

    @Test
    void turnsTheJdbcUrlEveryVariantReadsIntoAnR2dbcUrl() {
        assertThat(DatabaseConfiguration.r2dbcUrl("jdbc:postgresql://127.0.0.1:54329/bench"))
                .isEqualTo("r2dbc:postgresql://127.0.0.1:54329/bench");
        assertThat(DatabaseConfiguration.r2dbcUrl("jdbc:postgresql://db:5432/cell_1?sslmode=disable"))
                .isEqualTo("r2dbc:postgresql://db:5432/cell_1?sslmode=disable");
    }

    @Test
    void refusesAnythingButAPostgresJdbcUrl() {
        assertThatThrownBy(() -> DatabaseConfiguration.r2dbcUrl("r2dbc:postgresql://h/db"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DB_URL");
    }
}
