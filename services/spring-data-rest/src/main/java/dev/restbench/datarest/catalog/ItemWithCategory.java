package dev.restbench.datarest.catalog;

import org.springframework.data.rest.core.config.Projection;

import java.math.BigDecimal;
import java.time.Instant;

/** The excerpt of an item in collections ({@code ?projection=itemWithCategory} on one item): its category inline. */
@Projection(name = "itemWithCategory", types = Item.class)
public interface ItemWithCategory {

    String getSku();

    String getName();

    BigDecimal getPrice();

    Integer getStock();

    String getDescription();

    Category getCategory();

    Instant getUpdatedAt();
}
