package dev.restbench.jerseyjpa;

import dev.restbench.jersey.JerseyMain;
import dev.restbench.jerseyjpa.data.JpaDatabase;

/**
 * Entry point of jersey-jpa.jar: jersey's own main (configuration from the environment, exit codes, the ready line),
 * with the JPA data access in place of plain JDBC.
 */
public final class JerseyJpaMain {

    private JerseyJpaMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        JerseyMain.run("jersey-jpa", JpaDatabase::openDataAccess);
    }
}
