package dev.restbench.quarkus.http;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * Closes the connection of a refused request only once the rest of its body is read and dropped, as servers have
 * done since Apache's lingering close. Closing it as soon as the answer is written leaves the body's bytes unread in
 * the kernel, which answers them with a reset that can overtake the answer: the client saw no answer at all for 1-2
 * of 200 70 KB POSTs (the contract's answersEveryOversizedBody). Vert.x reads on after the answer while the request
 * asked for keep-alive, so the body is dropped as it comes; bounded by {@link #LINGER_MILLIS} after the answer and
 * {@link #LINGER_BYTES}, as the Node variants' lingering close is (a client cannot hold the connection or make it
 * read for long). All handlers run on the connection's event loop: no locking.
 */
final class LingeringClose {

    static final long LINGER_MILLIS = 5_000;
    /** Java's HttpClient goes on sending after the answer: 64 MiB lost none of 40 16 MB POSTs (express-http). */
    static final long LINGER_BYTES = 64L * 1024 * 1024;

    private final Vertx vertx;
    private final HttpConnection connection;
    private boolean answered;
    private boolean bodyEnded;
    private boolean closed;
    private long dropped;
    private long timer = -1;

    private LingeringClose(Vertx vertx, HttpConnection connection) {
        this.vertx = vertx;
        this.connection = connection;
    }

    /** Call before the answer is sent: the connection closes after it, once the body has been drained. */
    static void after(RoutingContext context) {
        HttpServerRequest request = context.request();
        LingeringClose linger = new LingeringClose(context.vertx(), request.connection());
        request.handler(buffer -> linger.dropped(buffer.length()));
        request.endHandler(ignored -> linger.bodyEnded());
        request.exceptionHandler(ignored -> linger.close());
        context.response().endHandler(ignored -> linger.answered());
        request.resume();
    }

    private void dropped(int bytes) {
        dropped += bytes;
        if (dropped > LINGER_BYTES) {
            close();
        }
    }

    private void bodyEnded() {
        bodyEnded = true;
        if (answered) {
            close();
        }
    }

    private void answered() {
        answered = true;
        if (bodyEnded) {
            close();
        } else {
            timer = vertx.setTimer(LINGER_MILLIS, ignored -> close());
        }
    }

    private void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
        connection.close();
    }
}
