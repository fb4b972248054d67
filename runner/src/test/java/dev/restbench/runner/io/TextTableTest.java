package dev.restbench.runner.io;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextTableTest {

    private static TextTable table() {
        return TextTable.of(List.of("variant", "µs/req", "reason"),
                        List.of(TextTable.Align.LEFT, TextTable.Align.RIGHT, TextTable.Align.LEFT))
                .row("jersey", "311", "ok")
                .row("spring-data-rest", "4120", "a | b\nc");
    }

    @Test
    void markdownAlignsFiguresRightAndEscapesWhatWouldBreakTheTable() {
        assertThat(table().markdown()).isEqualTo("""
                | variant | µs/req | reason |
                |---|--:|---|
                | jersey | 311 | ok |
                | spring-data-rest | 4120 | a \\| b c |
                """);
    }

    @Test
    void plainTextPadsByCodePointsAndLeavesNoTrailingSpace() {
        String plain = TextTable.of(List.of("variant", "µs/req"), 1).row("jersey", "311").row("sdr", "4120").plain();
        assertThat(plain).isEqualTo("""
                variant  µs/req
                ---------------
                jersey      311
                sdr        4120
                """);
        assertThat(TextTable.of(List.of("a", "b"), 1).row("x", "1").plainWidth()).isEqualTo(4);
    }

    @Test
    void aRowOfTheWrongWidthIsAnError() {
        assertThatThrownBy(() -> TextTable.of(List.of("a", "b"), 1).row("only one"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 cells in a table of 2 columns");
    }
}
