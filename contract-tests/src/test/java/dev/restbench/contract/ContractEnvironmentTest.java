package dev.restbench.contract;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** How a failed test finds its variant and its share of the variant's output. */
class ContractEnvironmentTest {

    @Test
    void anInvocationNamedByTheVariantFirstNamesIt() {
        assertThat(ContractEnvironment.namesVariant("jersey", "jersey")).isTrue();
        assertThat(ContractEnvironment.namesVariant("jersey: TRACE /items", "jersey")).isTrue();
        assertThat(ContractEnvironment.namesVariant("jersey (plain)", "jersey")).isTrue();
    }

    @Test
    void aLongerVariantNameIsNotItsPrefix() {
        assertThat(ContractEnvironment.namesVariant("jersey-jdk25", "jersey")).isFalse();
        assertThat(ContractEnvironment.namesVariant("jersey-jdk25: TRACE /items", "jersey")).isFalse();
        assertThat(ContractEnvironment.namesVariant("refusesConcurrentDuplicatesWith409()", "jersey")).isFalse();
    }

    @Test
    void theOutputOfATestIsWhatFollowsItsOffset() {
        byte[] output = "started\nready\nERROR boom\n\tat Some.frame\n".getBytes(StandardCharsets.UTF_8);
        int offset = "started\nready\n".length();
        assertThat(VariantProcess.lastLines(output, offset, 80)).isEqualTo("ERROR boom\n\tat Some.frame");
        assertThat(VariantProcess.lastLines(output, offset, 1)).isEqualTo("\tat Some.frame");
        assertThat(VariantProcess.lastLines(output, output.length + 10, 80)).isEmpty();
        assertThat(VariantProcess.lastLines(output, 0, 80)).startsWith("started");
    }
}
