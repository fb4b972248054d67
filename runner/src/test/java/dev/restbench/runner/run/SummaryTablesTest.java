package dev.restbench.runner.run;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTablesTest {

    @Test
    void aLongSentenceIsWrappedAtSpacesWithinTheWidthAndIndentedAfterTheFirstLine() {
        String line = "  read-heavy: jersey 716 µs; jersey-jdk25 1.0×, spring-mvc 1.3×, spring-mvc-virtual 1.3×,"
                + " spring-data-rest 3.5×";
        String wrapped = SummaryTables.wrap(line, "    ", 60);
        assertThat(wrapped).isEqualTo("""
                  read-heavy: jersey 716 µs; jersey-jdk25 1.0×, spring-mvc
                    1.3×, spring-mvc-virtual 1.3×, spring-data-rest 3.5×
                """);
        assertThat(wrapped.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(60));
        assertThat(SummaryTables.wrap("  short", "    ", 60)).isEqualTo("  short\n");
    }
}
