package dev.restbench.webflux.api;

import dev.restbench.spring.Text;

/** Body of POST and PUT /categories; unknown properties (also id and updatedAt) are ignored. */
public record CategoryRequest(
        @Text(max = 64) String code,
        @Text(max = 200) String name) {
}
