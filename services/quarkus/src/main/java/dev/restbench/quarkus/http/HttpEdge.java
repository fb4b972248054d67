package dev.restbench.quarkus.http;

import dev.restbench.quarkus.api.Problem;
import dev.restbench.quarkus.api.Problems;
import dev.restbench.quarkus.config.ServiceConfig;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * What Vert.x and Quarkus would answer themselves, before or beside Quarkus REST, as problem details too:
 * bodies above MAX_BODY_BYTES by Content-Length (Quarkus's own limit answers 413 with no body), requests that fail
 * in a Vert.x handler, and paths no route serves.
 */
@Singleton
public class HttpEdge {

    private static final Logger LOG = Logger.getLogger(HttpEdge.class);

    /** quarkus.smallrye-health.root-path and quarkus.micrometer.export.prometheus.path (application.properties). */
    private static final String HEALTH_PATH = "/actuator/health";
    private static final String METRICS_PATH = "/actuator/prometheus";
    private static final Set<String> OPERATIONS_PATHS = Set.of(HEALTH_PATH, METRICS_PATH);
    private static final String OPERATIONS_ALLOW = "GET, HEAD, OPTIONS";

    void install(@Observes Router router) {
        long maxBodyBytes = ServiceConfig.current().maxBodyBytes();
        // Chunked bodies have no length to check up front: Vert.x Web's BodyHandler reads them (at most
        // MAX_BODY_BYTES, failing the request with 413 beyond that, which failure() renders) and Quarkus REST takes
        // the body it read. Quarkus's own limit would answer such a body with an empty 413.
        BodyHandler chunkedBodies = BodyHandler.create(false).setBodyLimit(maxBodyBytes);
        router.route().order(Integer.MIN_VALUE).handler(context -> {
            if (OPERATIONS_PATHS.contains(context.request().path()) && !operationsRequest(context)) {
                return;
            }
            String length = context.request().getHeader(HttpHeaders.CONTENT_LENGTH);
            if (context.request().headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
                // Content-Length beside Transfer-Encoding: chunked is how requests are smuggled past a proxy that
                // reads the other framing; RFC 9112 §6.1 lets chunked win but says the connection MUST close after
                // the answer, and Vert.x kept it open (Netty may also have dropped the Content-Length, leaving no
                // trace of it). So every chunked request closes its connection: a client that sends chunked
                // bodies reconnects (the benchmarks' load sends Content-Length).
                // The header alone left the connection open; Quarkus REST owns the response's own end handler.
                context.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                context.addEndHandler(ignored -> context.request().connection().close());
            }
            if (length == null && context.request().headers().contains(HttpHeaders.TRANSFER_ENCODING)) {
                chunkedBodies.handle(context);
                return;
            }
            if (length != null && declared(length) > maxBodyBytes) {
                // Refused unread: the connection closes after the answer, so none of the body's bytes can be taken
                // for the next request (a client reconnects), once the rest of the body is read and dropped.
                context.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
                LingeringClose.after(context);
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

    /**
     * The health and metrics endpoints of the extensions answer any method; the contract documents GET only, so
     * other methods are a 405 as on every other path. A scrape is always the classic text format the contract
     * documents (text/plain; version=0.0.4): the registry would answer OpenMetrics to an Accept that asks for it.
     * Returns whether the request goes on to the extension's handler.
     */
    private static boolean operationsRequest(RoutingContext context) {
        HttpMethod method = context.request().method();
        if (method.equals(HttpMethod.OPTIONS)) {
            context.response().putHeader(HttpHeaders.ALLOW, OPERATIONS_ALLOW).end();
            return false;
        }
        if (!method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD)) {
            context.response().putHeader(HttpHeaders.ALLOW, OPERATIONS_ALLOW);
            send(context, 405, "method " + method.name() + " is not allowed on " + context.request().path());
            return false;
        }
        if (context.request().path().equals(METRICS_PATH)) {
            context.request().headers().set(HttpHeaders.ACCEPT, "text/plain");
        }
        return true;
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
        if (status < 400 && malformedFraming(context.failure())) {
            // Netty's decoder refused the body's framing (a chunk size that is no hex number, a broken trailer):
            // the request's fault, a 400, and the connection cannot be read further (it was a 500: issue 22).
            status = 400;
            context.response().putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE);
        }
        if (context.failure() instanceof HttpClosedException) {
            return; // the decoder's failure closed the connection: nobody is left to answer
        }
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

    /** Thrown by Netty's HTTP/1.1 decoder: it fails the request with the parse error as it is. */
    private static boolean malformedFraming(Throwable failure) {
        if (failure == null) {
            return false;
        }
        for (StackTraceElement frame : failure.getStackTrace()) {
            if (frame.getClassName().equals("io.netty.handler.codec.http.HttpObjectDecoder")) {
                return true;
            }
        }
        return false;
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
