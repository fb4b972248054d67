package dev.restbench.springmvc.cache;

import dev.restbench.support.cache.ValueCache;
import jakarta.validation.constraints.Pattern;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;

/**
 * /cache/{key}: the no-database workload, one value from the in-process cache, as the Spring / Quarkus / Go
 * methodology writes it. A key outside the contract fails method validation: a 400 listing {@code key}.
 */
@RestController
class CacheController {

    private final ValueCache cache = new ValueCache();

    @GetMapping(path = "/cache/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    ValueCache.Entry get(@PathVariable @Pattern(regexp = ValueCache.KEY_PATTERN) String key) {
        return cache.get(key);
    }
}
