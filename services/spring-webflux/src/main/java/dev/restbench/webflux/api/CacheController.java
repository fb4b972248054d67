package dev.restbench.webflux.api;

import dev.restbench.support.cache.ValueCache;
import dev.restbench.webflux.web.InvalidInputException;
import dev.restbench.webflux.web.InvalidInputException.InvalidField;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/** /cache/{key}: the no-database workload, one value from the in-process cache, answered on the event loop. */
@RestController
class CacheController {

    private final ValueCache cache = new ValueCache();

    @GetMapping(path = "/cache/{key}", produces = MediaType.APPLICATION_JSON_VALUE)
    Mono<ValueCache.Entry> get(@PathVariable String key) {
        if (!ValueCache.isKey(key)) {
            List<InvalidField> errors = List.of(new InvalidField("key", ValueCache.invalidKeyMessage()));
            return Mono.error(new InvalidInputException(InvalidInputException.describe(errors), errors));
        }
        return Mono.just(cache.get(key));
    }
}
