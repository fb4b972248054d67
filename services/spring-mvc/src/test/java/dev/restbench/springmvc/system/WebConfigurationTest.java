package dev.restbench.springmvc.system;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class WebConfigurationTest {

    private final WebConfiguration configuration = new WebConfiguration();

    @Test
    void registersTheFaultInjectionFilterOnlyForTheDrill() {
        assertThat(configuration.faultInjectionFilter(0).isEnabled()).isFalse();
        assertThat(configuration.faultInjectionFilter(25).isEnabled()).isTrue();
    }

    @Test
    void refusesANegativeFaultPercentage() {
        assertThatIllegalArgumentException().isThrownBy(() -> configuration.faultInjectionFilter(-1));
    }
}
