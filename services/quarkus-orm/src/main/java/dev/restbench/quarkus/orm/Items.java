package dev.restbench.quarkus.orm;

import dev.restbench.springmvc.item.Item;
import io.quarkus.hibernate.orm.panache.PanacheRepository;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Panache's repository of spring-mvc's Item entity (the same class, compiled from services/spring-mvc): a LAZY
 * {@code @ManyToOne} category, which every query that returns items for a response fetches in the same statement
 * ({@code join fetch}, see {@link ItemStore}).
 */
@ApplicationScoped
public class Items implements PanacheRepository<Item> {
}
