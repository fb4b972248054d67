package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

/**
 * JOIN-filter: items filtered by category, and a category's items (each item with its category, so both are
 * joins). One iteration = both, for one dataset category (2 requests).
 */
public class JoinFilterSimulation extends BenchSimulation {

    public JoinFilterSimulation() {
        super("join-filter", (ops, drafts) -> exec(ops.itemsByCategory(), ops.categoryItems()));
    }
}
