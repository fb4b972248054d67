package dev.restbench.webflux.api;

import dev.restbench.spring.Text;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;

import java.math.BigDecimal;

/**
 * Body of POST and PUT /items; unknown properties (also id and updatedAt) are ignored. Boxed types so that a
 * missing number is reported as missing rather than read as 0. The same constraints as spring-mvc's.
 */
public record ItemRequest(
        @Text(max = 64) String sku,
        @Text(max = 200) String name,
        @NotNull @DecimalMin("0") @DecimalMax("99999999.99") @Digits(integer = 8, fraction = 2) BigDecimal price,
        @NotNull @Min(0) Integer stock,
        @Text(max = 8192, optional = true) String description,
        @NotNull Long categoryId) {
}
