package dev.restbench.jerseyjpa.data;

import dev.restbench.springmvc.category.Category;
import dev.restbench.springmvc.item.Item;

/**
 * Entities to the API's records (bench-plain-jdbc's, which jersey's JSON mapper writes), inside the transaction.
 * Every query whose items are mapped here fetched their category with a join, so reading it issues no SQL; one
 * that did not would cost a statement per category, which the contract tests' statement counts catch.
 */
final class Responses {

    private Responses() {
    }

    static dev.restbench.plain.model.Category category(Category category) {
        return new dev.restbench.plain.model.Category(category.getId(), category.getCode(), category.getName(),
                category.getUpdatedAt());
    }

    static dev.restbench.plain.model.Item item(Item item) {
        return new dev.restbench.plain.model.Item(item.getId(), item.getSku(), item.getName(), item.getPrice(),
                item.getStock(), item.getDescription(), category(item.getCategory()), item.getUpdatedAt());
    }
}
