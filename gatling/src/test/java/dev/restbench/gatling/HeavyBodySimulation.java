package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

/**
 * HEAVY-body: ~5 KB request bodies. One iteration creates an item with a ~5 KB description in a dataset category,
 * then updates it with another ~5 KB body (2 requests). Items are not deleted: the runner gives every measurement a
 * fresh database, and a delete would dilute the heavy requests with a light one.
 */
public class HeavyBodySimulation extends BenchSimulation {

    public HeavyBodySimulation() {
        super("heavy-body", (ops, drafts) -> exec(
                exec(Drafts::nextKey),
                ops.createItem(drafts::heavyItem)).exitHereIfFailed()
                .exec(ops.updateItem(drafts::updatedHeavyItem)));
    }
}
