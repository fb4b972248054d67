package dev.restbench.datarest.catalog;

import dev.restbench.spring.Text;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.FetchType;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.JoinColumn;
import jakarta.persistence.ManyToOne;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.PositiveOrZero;
import org.springframework.data.annotation.Immutable;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * A row of {@code item} (schema: shared/schema, V1__catalog.sql).
 *
 * <p>{@link Immutable} tells Spring Data REST to treat a PUT as what HTTP says it is, a full replacement: the item
 * read from the request body (with its category resolved from the association link) replaces the stored one, whose
 * id and updatedAt are carried over. Without it SDR merges the body into the stored item and skips linked
 * associations, so a PUT could never move an item to another category (spring-data-rest#1364). Nothing else in
 * this application relies on the flag: Hibernate still updates the row in place.
 */
@Immutable
@Entity
@Table(name = "item")
public class Item {

    /**
     * Read-only for Jackson: otherwise it would bind an {@code id} from a POST body through the field, and the
     * repository's save would merge onto (overwrite) that existing row instead of inserting.
     */
    @JsonProperty(access = JsonProperty.Access.READ_ONLY)
    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Text(max = 64)
    @Column(nullable = false, length = 64)
    private String sku;

    @Text(max = 200)
    @Column(nullable = false, length = 200)
    private String name;

    @NotNull
    @DecimalMin("0.00")
    @DecimalMax("99999999.99")
    @Digits(integer = 8, fraction = 2)
    @Column(nullable = false, precision = 10, scale = 2)
    private BigDecimal price;

    @NotNull
    @PositiveOrZero
    @Column(nullable = false)
    private Integer stock;

    @Text(max = 8192, optional = true)
    @Column(columnDefinition = "text")
    private String description;

    /**
     * Lazy, so that writes and plain reads never load the category; the finders that render it
     * (see {@link ItemRepository}) fetch it in the same statement with an entity graph.
     */
    @NotNull
    @ManyToOne(fetch = FetchType.LAZY, optional = false)
    @JoinColumn(name = "category_id", nullable = false)
    private Category category;

    /** Set by the server only; a value in a request body is ignored. */
    @JsonProperty(access = JsonProperty.Access.READ_ONLY)
    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    @PrePersist
    @PreUpdate
    void touch() {
        updatedAt = Timestamps.now();
    }

    public Long getId() {
        return id;
    }

    public String getSku() {
        return sku;
    }

    public void setSku(String sku) {
        this.sku = sku;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public BigDecimal getPrice() {
        return price;
    }

    public void setPrice(BigDecimal price) {
        this.price = price;
    }

    public Integer getStock() {
        return stock;
    }

    public void setStock(Integer stock) {
        this.stock = stock;
    }

    public String getDescription() {
        return description;
    }

    public void setDescription(String description) {
        this.description = description;
    }

    public Category getCategory() {
        return category;
    }

    public void setCategory(Category category) {
        this.category = category;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
