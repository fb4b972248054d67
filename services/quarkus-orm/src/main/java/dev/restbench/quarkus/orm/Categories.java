package dev.restbench.quarkus.orm;

import dev.restbench.springmvc.category.Category;
import io.quarkus.hibernate.orm.panache.PanacheRepository;
import jakarta.enterprise.context.ApplicationScoped;

/** Panache's repository of spring-mvc's Category entity (the same class, compiled from services/spring-mvc). */
@ApplicationScoped
public class Categories implements PanacheRepository<Category> {
}
