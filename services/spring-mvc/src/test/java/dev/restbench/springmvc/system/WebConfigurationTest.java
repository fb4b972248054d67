package dev.restbench.springmvc.system;

import dev.restbench.support.FaultInjection;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

class WebConfigurationTest {

    private final WebConfiguration configuration = new WebConfiguration();

    /** The faults come from the environment (FaultInjection, tested in bench-support); none is set for the build. */
    @Test
    void registersTheFaultInjectionFilterOnlyForTheDrill() {
        assumeTrue(System.getenv(FaultInjection.ENV) == null && System.getenv(FaultInjection.ALLOC_ENV) == null,
                "a drill fault is set in this environment");
        assertThat(configuration.faultInjectionFilter().isEnabled()).isFalse();
    }
}
