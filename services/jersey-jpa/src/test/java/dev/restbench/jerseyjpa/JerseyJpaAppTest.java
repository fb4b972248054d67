package dev.restbench.jerseyjpa;

import dev.restbench.jersey.JaxRsAppContract;

/** jersey's tests of its web layer ({@link JaxRsAppContract}) on this variant: Jersey and Grizzly over JPA. */
class JerseyJpaAppTest extends JaxRsAppContract<JerseyJpaApp> {

    JerseyJpaAppTest() {
        super("jersey_jpa", "WJJ", JerseyJpaApp::start, JerseyJpaApp::port);
    }
}
