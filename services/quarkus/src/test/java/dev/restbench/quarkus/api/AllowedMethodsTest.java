package dev.restbench.quarkus.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AllowedMethodsTest {

    @Test
    void readsTheMethodsOfEachPathFromTheResources() {
        assertThat(AllowedMethods.at("/items")).isEqualTo("GET, HEAD, OPTIONS, POST");
        assertThat(AllowedMethods.at("/categories")).isEqualTo("GET, HEAD, OPTIONS, POST");
        assertThat(AllowedMethods.at("/items/7")).isEqualTo("DELETE, GET, HEAD, OPTIONS, PUT");
        assertThat(AllowedMethods.at("/categories/7/items")).isEqualTo("GET, HEAD, OPTIONS");
        assertThat(AllowedMethods.at("/nothing")).isNull();
    }
}
