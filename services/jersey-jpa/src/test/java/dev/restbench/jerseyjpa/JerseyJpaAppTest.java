package dev.restbench.jerseyjpa;

import dev.restbench.jersey.JaxRsAppContract;
import dev.restbench.jersey.JerseyApp;
import dev.restbench.jerseyjpa.data.JpaDatabase;

/**
 * jersey's tests of its web layer ({@link JaxRsAppContract}) on this variant: jersey's application (compiled here),
 * Jersey and Grizzly over JPA.
 */
class JerseyJpaAppTest extends JaxRsAppContract<JerseyApp> {

    JerseyJpaAppTest() {
        super("jersey_jpa", "WJJ", (config, faults) -> JerseyApp.start(config, faults, JpaDatabase::openDataAccess),
                JerseyApp::port);
    }
}
