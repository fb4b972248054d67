package dev.restbench.plain.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.ItemRequest;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class RequestValidatorTest {

    @Test
    void blankIsTheContractsBlank() {
        assertThat(RequestValidator.isBlank(" \t\u00a0\u202f\ufeff\u0001")).isTrue();
        assertThat(RequestValidator.isBlank(" x ")).isFalse();
    }

    @Test
    void listsEveryInvalidField() {
        assertThatThrownBy(() -> RequestValidator.valid(new ItemRequest("", null, new BigDecimal("1.234"), -1L,
                null, null)))
                .isInstanceOfSatisfying(ProblemException.class, problem -> assertThat(problem.errors())
                        .extracting(FieldError::field).containsExactly("sku", "name", "price", "stock", "categoryId"));
    }

    @Test
    void lengthsAreCountedInCodePoints() {
        String astral = "\uD83D\uDE00".repeat(64);
        assertThat(RequestValidator.valid(new CategoryRequest(astral, "n")).code()).isEqualTo(astral);
        assertThatThrownBy(() -> RequestValidator.valid(new CategoryRequest(astral + "x", "n")))
                .isInstanceOf(ProblemException.class);
    }
}
