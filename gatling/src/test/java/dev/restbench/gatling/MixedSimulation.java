package dev.restbench.gatling;

import static io.gatling.javaapi.core.CoreDsl.exec;

/**
 * MIXED: writes on two entities interleaved with reads. One iteration (10 requests, 6 writes and 4 reads) creates a
 * category and an item in it, updates both and deletes both again (the item first: a category with items cannot
 * be deleted), while reading dataset rows in between. Only rows created by this iteration are modified, so the
 * dataset that reads rely on never changes. If a create fails, the iteration stops there: the rest would act on an
 * id that does not exist and count one failure several times.
 */
public class MixedSimulation extends BenchSimulation {

    public MixedSimulation() {
        super("mixed", (ops, drafts) -> exec(
                ops.listItems(),
                exec(Drafts::nextKey),
                ops.createCategory(drafts::category)).exitHereIfFailed()
                .exec(ops.getItem(),
                        ops.createItem(drafts::itemInNewCategory)).exitHereIfFailed()
                .exec(ops.listCategories(),
                        ops.updateItem(drafts::updatedItemInNewCategory),
                        ops.getCategory(),
                        ops.updateCategory(drafts::renamedCategory),
                        ops.deleteItem(),
                        ops.deleteCategory()));
    }
}
