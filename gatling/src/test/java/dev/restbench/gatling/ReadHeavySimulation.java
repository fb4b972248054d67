package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

/**
 * READ-heavy: reads with the category included. One iteration = a page of items, then one item (2 requests).
 */
public class ReadHeavySimulation extends BenchSimulation {

    public ReadHeavySimulation() {
        super("read-heavy", (ops, drafts) -> exec(ops.listItems(), ops.getItem()));
    }
}
