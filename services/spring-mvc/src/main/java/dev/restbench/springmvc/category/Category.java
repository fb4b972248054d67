package dev.restbench.springmvc.category;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

@Entity
@Table(name = "category")
public class Category {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    private Long id;

    @Column(nullable = false, length = 64)
    private String code;

    @Column(nullable = false, length = 200)
    private String name;

    @Column(name = "updated_at", nullable = false)
    private Instant updatedAt;

    protected Category() {
        // for JPA
    }

    public Category(String code, String name, Instant updatedAt) {
        this.code = code;
        this.name = name;
        this.updatedAt = updatedAt;
    }

    public void update(String code, String name, Instant updatedAt) {
        this.code = code;
        this.name = name;
        this.updatedAt = updatedAt;
    }

    public Long getId() {
        return id;
    }

    public String getCode() {
        return code;
    }

    public String getName() {
        return name;
    }

    public Instant getUpdatedAt() {
        return updatedAt;
    }
}
