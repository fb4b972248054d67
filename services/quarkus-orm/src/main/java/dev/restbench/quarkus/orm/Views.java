package dev.restbench.quarkus.orm;

import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.Item;

/**
 * Entities to the API's records (bench-plain-jdbc's, which services/quarkus returns too), so that the web layer and
 * its JSON writing are the sibling's exactly and only the data access differs. Called while the session is open;
 * every item's category has been fetched with it by then.
 */
final class Views {

    private Views() {
    }

    static Category category(dev.restbench.springmvc.category.Category category) {
        return new Category(category.getId(), category.getCode(), category.getName(), category.getUpdatedAt());
    }

    static Item item(dev.restbench.springmvc.item.Item item) {
        return new Item(item.getId(), item.getSku(), item.getName(), item.getPrice(), item.getStock(),
                item.getDescription(), category(item.getCategory()), item.getUpdatedAt());
    }
}
