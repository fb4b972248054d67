package dev.restbench.dataset;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DatasetGeneratorTest {

    @Test
    void sameSeedGivesIdenticalRows() {
        var spec = new DatasetSpec(50, 2_000, 0.1, 7);
        assertThat(new DatasetGenerator(spec).items().toList()).isEqualTo(new DatasetGenerator(spec).items().toList());
        assertThat(new DatasetGenerator(spec).categories().toList())
                .isEqualTo(new DatasetGenerator(spec).categories().toList());
    }

    @Test
    void anotherSeedGivesOtherRows() {
        List<DatasetGenerator.ItemRow> a = new DatasetGenerator(new DatasetSpec(50, 200, 0.1, 7)).items().toList();
        List<DatasetGenerator.ItemRow> b = new DatasetGenerator(new DatasetSpec(50, 200, 0.1, 8)).items().toList();
        assertThat(a).isNotEqualTo(b);
    }

    @Test
    void aRowDoesNotDependOnTheRowsBeforeIt() {
        var generator = new DatasetGenerator(DatasetSpec.SMALL);
        assertThat(generator.item(321)).isEqualTo(generator.items().skip(320).findFirst().orElseThrow());
    }

    @Test
    void followsTheIdCodeAndSkuContract() {
        var generator = new DatasetGenerator(new DatasetSpec(20, 500, 0.1, 42));
        var item = generator.item(45);
        assertThat(item.sku()).isEqualTo("SKU-0000045");
        assertThat(item.categoryId()).isEqualTo(1 + (45 - 1) % 20);
        assertThat(generator.category(7).code()).isEqualTo("CAT-00007");
        assertThat(item.price().scale()).isEqualTo(2);
    }

    @Test
    void aShareOfItemsCarriesAFiveKilobyteDescription() {
        var items = new DatasetGenerator(new DatasetSpec(10, 5_000, 0.1, 42)).items().toList();
        long heavy = items.stream().filter(i -> i.description().length() > 4_000).count();
        assertThat(heavy).isBetween(400L, 600L);
        assertThat(items.stream().mapToInt(i -> i.description().length()).max().orElseThrow())
                .isLessThanOrEqualTo(DatasetGenerator.HEAVY_DESCRIPTION_CHARS);
    }

    @Test
    void rejectsImpossibleSpecs() {
        assertThatThrownBy(() -> new DatasetSpec(0, 10, 0.1, 1)).hasMessageContaining("categories");
        assertThatThrownBy(() -> new DatasetSpec(1, 10, 1.5, 1)).hasMessageContaining("heavyShare");
        assertThatThrownBy(() -> DatasetSpec.named("huge")).hasMessageContaining("huge");
    }

    @Test
    void escapesCsvFields() {
        assertThat(DatasetLoader.csv(1, "a \"quoted\", text", null)).isEqualTo("\"1\",\"a \"\"quoted\"\", text\",\n");
    }
}
