package dev.restbench.datarest.cache;

import dev.restbench.support.cache.ValueCache;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * /cache/{key}: the no-database workload. Not a repository, so a plain {@code @RestController} beside them, as a
 * Spring Data REST user adds one: plain JSON, no HAL. A key outside the contract fails method validation, which
 * {@code web.ErrorHandling} answers with a 400 problem detail.
 */
@RestController
class CacheController {

    private final ValueCache cache = new ValueCache();

    @GetMapping(path = "/cache/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    ValueCache.Entry get(@PathVariable @Pattern(regexp = ValueCache.KEY_PATTERN) String key) {
        return cache.get(key);
    }
}
