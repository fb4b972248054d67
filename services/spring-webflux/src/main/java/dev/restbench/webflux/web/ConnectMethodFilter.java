package dev.restbench.webflux.web;

import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * CONNECT is the proxy method (its target must be {@code host:port}, RFC 9112 section 3.2.3); sent to this origin
 * server it is a bad request: 400, as spring-mvc answers it. Without this, WebFlux routed {@code CONNECT host:port}
 * as the empty path (404) and {@code CONNECT /items/1} as a wrong method (405).
 */
public class ConnectMethodFilter implements WebFilter {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if ("CONNECT".equals(exchange.getRequest().getMethod().name())) {
            return Mono.error(new ResponseStatusException(HttpStatus.BAD_REQUEST,
                    "CONNECT is the proxy method; this is an origin server"));
        }
        return chain.filter(exchange);
    }
}
