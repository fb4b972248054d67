package dev.restbench.quarkus.data;

import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.Item;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/** Maps the reactive client's rows to the API records; the column names are jersey's SELECT lists. */
final class Rows {

    /** Item columns plus its category's, for "item JOIN category" queries with the item aliased {@code i}. */
    static final String ITEM_WITH_CATEGORY = """
            i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
            c.id AS category_id, c.code AS category_code, c.name AS category_name,
            c.updated_at AS category_updated_at""";

    static final String CATEGORY = "id, code, name, updated_at";

    private Rows() {
    }

    static Category category(Row row) {
        return new Category(row.getLong("id"), row.getString("code"), row.getString("name"),
                instant(row, "updated_at"));
    }

    static Item item(Row row) {
        Category category = new Category(row.getLong("category_id"), row.getString("category_code"),
                row.getString("category_name"), instant(row, "category_updated_at"));
        return new Item(row.getLong("id"), row.getString("sku"), row.getString("name"), row.getBigDecimal("price"),
                row.getInteger("stock"), row.getString("description"), category, instant(row, "updated_at"));
    }

    static <T> Optional<T> first(RowSet<Row> rows, Function<Row, T> mapper) {
        var iterator = rows.iterator();
        return iterator.hasNext() ? Optional.of(mapper.apply(iterator.next())) : Optional.empty();
    }

    static <T> List<T> all(RowSet<Row> rows, Function<Row, T> mapper) {
        List<T> list = new ArrayList<>(rows.size());
        for (Row row : rows) {
            list.add(mapper.apply(row));
        }
        return list;
    }

    /** The first column of the only row, or empty when there is no row. */
    static OptionalLong count(RowSet<Row> rows) {
        var iterator = rows.iterator();
        return iterator.hasNext() ? OptionalLong.of(iterator.next().getLong(0)) : OptionalLong.empty();
    }

    /** Bound as timestamptz with an explicit UTC offset, as jersey binds it. */
    static OffsetDateTime timestamp(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static Instant instant(Row row, String column) {
        return row.getOffsetDateTime(column).toInstant();
    }
}
