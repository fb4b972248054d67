package dev.restbench.plain.data;

import dev.restbench.plain.model.Category;
import dev.restbench.plain.model.Item;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Maps result rows to API records and binds timestamps; the column names match the SELECT lists below. */
final class Rows {

    /** Item columns plus its category's, for "item JOIN category" queries with the item aliased {@code i}. */
    static final String ITEM_WITH_CATEGORY = """
            i.id, i.sku, i.name, i.price, i.stock, i.description, i.updated_at,
            c.id AS category_id, c.code AS category_code, c.name AS category_name,
            c.updated_at AS category_updated_at""";

    static final String CATEGORY = "id, code, name, updated_at";

    private Rows() {
    }

    static Category category(ResultSet rs) throws SQLException {
        return new Category(rs.getLong("id"), rs.getString("code"), rs.getString("name"),
                instant(rs, "updated_at"));
    }

    static Item item(ResultSet rs) throws SQLException {
        Category category = new Category(rs.getLong("category_id"), rs.getString("category_code"),
                rs.getString("category_name"), instant(rs, "category_updated_at"));
        return new Item(rs.getLong("id"), rs.getString("sku"), rs.getString("name"), rs.getBigDecimal("price"),
                rs.getInt("stock"), rs.getString("description"), category, instant(rs, "updated_at"));
    }

    static void setInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        statement.setObject(index, OffsetDateTime.ofInstant(instant, ZoneOffset.UTC));
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }
}
