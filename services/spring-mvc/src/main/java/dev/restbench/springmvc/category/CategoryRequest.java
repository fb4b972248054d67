package dev.restbench.springmvc.category;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;

/** Body of POST and PUT /categories; unknown properties (also id and updatedAt) are ignored. */
public record CategoryRequest(
        @NotBlank @Size(max = 64) String code,
        @NotBlank @Size(max = 200) String name) {
}
