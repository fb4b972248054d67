package dev.restbench.webflux;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The plain API on Spring WebFlux: annotated controllers returning {@code Mono}, R2DBC all the way down. */
@SpringBootApplication
public class SpringWebFluxApplication {

    public static void main(String[] args) {
        SpringApplication.run(SpringWebFluxApplication.class, args);
    }
}
