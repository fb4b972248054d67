package dev.restbench.quarkus.http;

import dev.restbench.quarkus.api.Problem;
import dev.restbench.quarkus.api.Problems;
import dev.restbench.quarkus.config.ServiceConfig;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import org.jboss.logging.Logger;

/**
 * What Vert.x and Quarkus would answer themselves, before or beside Quarkus REST, as problem details too:
 * bodies above MAX_BODY_BYTES by Content-Length (Quarkus's own limit answers 413 with no body), requests that fail
 * in a Vert.x handler, and paths no route serves.
 */
@Singleton
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);

    void install(@Observes Router router) {
        long maxBodyBytes = ServiceConfig.current().maxBodyBytes();
        // Chunked bodies have no length to check up front: Vert.x Web's BodyHandler reads them (at most
        // MAX_BODY_BYTES, failing the request with 413 beyond that, which failure() renders) and Quarkus REST takes
        // the body it read. Quarkus's own limit would answer such a body with an empty 413.
        BodyHandler chunkedBodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes);
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (length == null && context.request().headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
                chunkedBodies.handle(context);
                return;
            }
            if (length != null && declared(length) > maxBodyBytes) {
                // The body stays unread: close the connection after the answer, so none of its bytes can be
                // taken for the next request (a client reconnects).
                HttpServerResponse response = context.response();
                response.putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                response.endHandler(ignored -> context.request().connection().close());
                send(context, 413, Problems.tooLarge());
                return;
            }
            context.next();
        });
        router.route().order(Integer.MIN_VALUE).failureHandler(HttpEdge::failure);
        router.errorHandler(404, context -> send(context, 404, "no resource at " + context.request().path()));
        router.errorHandler(405, context -> send(context, 405, "method " + context.request().method().name()
                + " is not allowed on " + context.request().path()));
        router.errorHandler(500, HttpEdge::failure);
    }

    private static long declared(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1; // Netty refuses a malformed Content-Length before any handler runs
        }
    }

    private static void failure(RoutingContext context) {
        int status = context.statusCode();
        if (status < 400) {
            status = 500;
        }
        if (status >= 500) {
            LOG.errorf(context.failure(), "failure on %s %s", context.request().method(), context.request().uri());
        }
        String detail = switch (status) {
            case 404 -> "no resource at " + context.request().path();
            case 413 -> Problems.tooLarge();
            case 500 -> "the service failed to handle the request";
            default -> status < 500 ? "the request is malformed" : "the service failed to handle the request";
        };
        if (status == 413) {
            context.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
        send(context, status, detail);
    }

    static void send(RoutingContext context, int status, String detail) {
        HttpServerResponse response = context.response();
        if (response.ended() || response.headWritten()) {
            return;
        }
        response.setStatusCode(status)
                .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE + "; charset=UTF-8")
                .end(Problems.json(status, detail, context.request().path(), null));
    }
}
