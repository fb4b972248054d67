package dev.restbench.resteasy;

import dev.restbench.jersey.api.ActuatorResource;
import dev.restbench.jersey.api.CacheResource;
import dev.restbench.jersey.api.CategoryResource;
import dev.restbench.jersey.api.ItemResource;
import dev.restbench.jersey.api.JsonMapperProvider;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.plain.data.CategoryRepository;
import dev.restbench.plain.data.ItemRepository;
import dev.restbench.jersey.http.BodySizeLimitFilter;
import dev.restbench.jersey.http.ContentTypeCheckFilter;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.resteasy.edge.RelativeLocation;
import dev.restbench.resteasy.metrics.ExceptionTaggingMapper;
import dev.restbench.resteasy.metrics.RouteTemplateFilter;
import dev.restbench.support.cache.ValueCache;
import jakarta.ws.rs.core.Application;
import java.util.Set;
import javax.sql.DataSource;
import org.jboss.resteasy.plugins.providers.StringTextStar;
import org.jboss.resteasy.plugins.providers.jackson.ResteasyJackson2Provider;
import org.jboss.resteasy.spi.ResteasyProviderFactory;

/**
 * What RESTEasy serves: jersey's resources, mapper and filters (the same classes, built here from their constructors,
 * where Jersey's ResourceConfig has HK2 build them), plus the few RESTEasy-specific pieces. RESTEasy's built-in
 * providers are switched off ({@code setRegisterBuiltin(false)} in {@link ResteasyApp}) so that nothing is found on
 * the classpath: like Jersey's disabled auto-discovery, it keeps resteasy-jackson2-provider's own exception mapper
 * (a plain-text 400) from shadowing ProblemMapper for JSON errors.
 */
final class RestApplication extends Application {

    private final ExceptionTaggingMapper problems = new ExceptionTaggingMapper();
    private final Set<Object> singletons;

    RestApplication(ServiceConfig config, DataSource dataSource, ServiceMetrics metrics) {
        ItemRepository items = new ItemRepository(dataSource);
        this.singletons = Set.of(
                // Providers: JSON through Jackson with the service's one ObjectMapper, Strings for the scrape.
                new ResteasyJackson2Provider(),
                new StringTextStar(),
                new JsonMapperProvider(),
                problems,
                new ContentTypeCheckFilter(),
                new BodySizeLimitFilter(config.maxBodyBytes()),
                new RouteTemplateFilter(),
                new RelativeLocation(),
                // Resources (singletons, as @Singleton says in jersey).
                new CategoryResource(new CategoryRepository(dataSource), items),
                new ItemResource(items),
                new CacheResource(new ValueCache()),
                new ActuatorResource(dataSource, metrics.registry()));
    }

    @Override
    public Set<Object> getSingletons() {
        return singletons;
    }

    /** Once the deployment runs: the wrapped ProblemMapper gets its @Context fields like any registered provider. */
    void injectContext(ResteasyProviderFactory providers) {
        problems.injectContext(providers);
    }
}
