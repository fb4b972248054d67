package dev.restbench.quarkus.data;

import dev.restbench.plain.data.CategoryRepository;
import dev.restbench.plain.data.ItemRepository;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import javax.sql.DataSource;

/**
 * The plain dialect's JDBC repositories (bench-plain-jdbc, the same statements as jersey's) as CDI singletons on
 * Quarkus's Agroal pool. Produced here because the shared classes carry no CDI annotations. The resources inject them
 * as the {@code ItemStore}/{@code CategoryStore} interfaces they implement; quarkus-orm compiles this application
 * without this file and supplies Hibernate beans of those interfaces.
 */
@Singleton
public class Repositories {

    @Produces
    @Singleton
    CategoryRepository categories(DataSource dataSource) {
        return new CategoryRepository(dataSource);
    }

    @Produces
    @Singleton
    ItemRepository items(DataSource dataSource) {
        return new ItemRepository(dataSource);
    }
}
