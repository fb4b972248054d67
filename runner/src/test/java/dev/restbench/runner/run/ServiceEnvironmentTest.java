package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A service started as the runner's own user inherits its environment, but no fault switch the record would miss. */
class ServiceEnvironmentTest {

    @Test
    void aFaultSwitchInTheRunnersShellDoesNotReachTheService() {
        Map<String, String> environment = new HashMap<>(Map.of("PATH", "/usr/bin", "FAULT_CPU_PERCENT", "10",
                "FAULT_START_FAIL_PERCENT", "30", "DB_POOL_SIZE", "4"));

        ServiceProcess.environment(environment, Map.of("DB_POOL_SIZE", "16", "FAULT_ALLOC_PERCENT", "5"));

        assertThat(environment).as("the manifest's fault (recorded) stays; the shell's are gone; the launch wins")
                .containsExactlyInAnyOrderEntriesOf(Map.of("PATH", "/usr/bin", "DB_POOL_SIZE", "16",
                        "FAULT_ALLOC_PERCENT", "5"));
    }
}
