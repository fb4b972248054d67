package dev.restbench.datarest.catalog;

import dev.restbench.spring.Text;

import com.fasterxml.jackson.annotation.JsonProperty;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.PrePersist;
import jakarta.persistence.PreUpdate;
import jakarta.persistence.Table;

import java.time.Instant;

/** A row of {@code category} (schema: shared/schema, V1__catalog.sql). */
@Entity
@Table(name = "category")
public class Category {

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
    private String code;

    @Text(max = 200)
    @Column(nullable = false, length = 200)
    private String name;

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

    public String getCode() {
        return code;
    }

    public void setCode(String code) {
        this.code = code;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
