package dev.restbench.jersey;

/**
 * The jersey application's tests ({@link JaxRsAppContract}) on Jersey and Grizzly. The JDK client offers
 * {@code Upgrade: h2c} on every request, which Grizzly alone mishandles (bodies never arrive); these tests fail
 * without {@link dev.restbench.jersey.http.IgnoreH2cUpgrade}.
 */
class JerseyAppTest extends JaxRsAppContract<JerseyApp> {

    JerseyAppTest() {
        super("jersey", "WJT", JerseyApp::start, JerseyApp::port);
    }
}
