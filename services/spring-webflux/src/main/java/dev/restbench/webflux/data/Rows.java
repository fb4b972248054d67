package dev.restbench.webflux.data;

import io.r2dbc.spi.Readable;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Maps result rows to the API records; the column names match the SELECT lists below (jersey's). */
final class Rows {

    /** Item columns plus its category's, for "item JOIN category" queries with the item aliased {@code i}. */
    static final String ITEM_WITH_CATEGORY = """
            i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
            c.id AS category_id, c.code AS category_code, c.name AS category_name,
            c.updated_at AS category_updated_at""";

    static final String CATEGORY = "id, code, name, updated_at";

    private Rows() {
    }

    static Category category(Readable row) {
        return new Category(row.get("id", Long.class), row.get("code", String.class), row.get("name", String.class),
                instant(row, "updated_at"));
    }

    static Item item(Readable row) {
        Category category = new Category(row.get("category_id", Long.class), row.get("category_code", String.class),
                row.get("category_name", String.class), instant(row, "category_updated_at"));
        return new Item(row.get("id", Long.class), row.get("sku", String.class), row.get("name", String.class),
                row.get("price", BigDecimal.class), row.get("stock", Integer.class),
                row.get("description", String.class), category, instant(row, "updated_at"));
    }

    static long count(Readable row) {
        return row.get(0, Long.class);
    }

    /** Bound as timestamptz with an explicit UTC offset, as jersey binds it. */
    static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(Readable row, String column) {
        return row.get(column, OffsetDateTime.class).toInstant();
    }
}
