package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;

import java.time.Duration;
import java.util.function.Function;

/**
 * The runner's pause of the load (warmup cycles of load and idle, docs/method.md): while it lasts, no request is
 * sent. {@link BenchSimulation}'s controller reads the runner's pause file every 100 ms into {@link #paused}; every
 * operation first waits while it is set, so a user in the middle of a several-request iteration stops before its next
 * request, not at the end of the iteration (a slow Spring Data REST iteration under load outlasted a 4 s idle).
 */
final class LoadPause {

    /** How often a waiting user looks again. */
    private static final Duration POLL = Duration.ofMillis(50);

    /** Read by every request, written by the controller: a flag, so a paused check costs no system call. */
    static volatile boolean paused;

    private LoadPause() {
    }

    static ChainBuilder waitWhilePaused() {
        return asLongAs(session -> paused).on(pause(POLL));
    }

    /** The same operations, each waiting first while the load is paused. */
    static Operations around(Operations ops) {
        return new Operations() {
            @Override
            public HttpProtocolBuilder protocol(String baseUrl) {
                return ops.protocol(baseUrl);
            }

            @Override
            public ChainBuilder listItems() {
                return first(ops.listItems());
            }

            @Override
            public ChainBuilder getItem() {
                return first(ops.getItem());
            }

            @Override
            public ChainBuilder getCacheValue() {
                return first(ops.getCacheValue());
            }

            @Override
            public ChainBuilder listCategories() {
                return first(ops.listCategories());
            }

            @Override
            public ChainBuilder getCategory() {
                return first(ops.getCategory());
            }

            @Override
            public ChainBuilder itemsByCategory() {
                return first(ops.itemsByCategory());
            }

            @Override
            public ChainBuilder categoryItems() {
                return first(ops.categoryItems());
            }

            @Override
            public ChainBuilder createCategory(Function<Session, CategoryDraft> draft) {
                return first(ops.createCategory(draft));
            }

            @Override
            public ChainBuilder updateCategory(Function<Session, CategoryDraft> draft) {
                return first(ops.updateCategory(draft));
            }

            @Override
            public ChainBuilder deleteCategory() {
                return first(ops.deleteCategory());
            }

            @Override
            public ChainBuilder createItem(Function<Session, ItemDraft> draft) {
                return first(ops.createItem(draft));
            }

            @Override
            public ChainBuilder updateItem(Function<Session, ItemDraft> draft) {
                return first(ops.updateItem(draft));
            }

            @Override
            public ChainBuilder deleteItem() {
                return first(ops.deleteItem());
            }
        };
    }

    private static ChainBuilder first(ChainBuilder operation) {
        return exec(waitWhilePaused(), operation);
    }
}
