package dev.restbench.jersey;

import dev.restbench.jersey.api.ActuatorResource;
import dev.restbench.jersey.api.CacheResource;
import dev.restbench.jersey.api.CategoryResource;
import dev.restbench.jersey.api.ItemResource;
import dev.restbench.jersey.api.JsonMapperProvider;
import dev.restbench.jersey.api.ProblemMapper;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.data.DataAccess;
import dev.restbench.jersey.http.BodySizeLimitFilter;
import dev.restbench.jersey.http.ContentTypeCheckFilter;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.plain.data.CategoryStore;
import dev.restbench.plain.data.ItemStore;
import dev.restbench.support.cache.ValueCache;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import javax.sql.DataSource;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.micrometer.server.DefaultJerseyTagsProvider;
import org.glassfish.jersey.micrometer.server.MetricsApplicationEventListener;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * Everything Jersey serves, registered explicitly (no classpath scanning: faster startup, nothing implicit). The
 * resources read and write through the stores of {@code data}: jersey's JDBC repositories, or jersey-jpa's JPA stores.
 */
final class ApiApplication extends ResourceConfig {

    ApiApplication(ServiceConfig config, DataAccess data, ServiceMetrics metrics) {
        // Auto-discovery would add JacksonFeature with its own exception mappers (plain-text 400s);
        // ProblemMapper handles those errors instead.
        property(CommonProperties.FEATURE_AUTO_DISCOVERY_DISABLE_SERVER, true);
        property(ServerProperties.WADL_FEATURE_DISABLE, true);
        // Location: /items/{id}, as the contract shows it, not rewritten to an absolute URI.
        property(ServerProperties.LOCATION_HEADER_RELATIVE_URI_RESOLUTION_DISABLED, true);

        register(JacksonFeature.withoutExceptionMappers());
        register(new JsonMapperProvider());
        register(ProblemMapper.class);
        register(new ContentTypeCheckFilter());
        register(new BodySizeLimitFilter(config.maxBodyBytes()));
        register(new MetricsApplicationEventListener(metrics.registry(), new DefaultJerseyTagsProvider(),
                ServiceMetrics.HTTP_SERVER_REQUESTS, true));

        // Resources are singletons built by HK2 from these instances (registering resource instances directly
        // works too, but Jersey then logs a spurious warning per resource: eclipse-ee4j/jersey#3700).
        register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(data.categories()).to(CategoryStore.class);
                bind(data.items()).to(ItemStore.class);
                bind(data.dataSource()).to(DataSource.class);
                bind(metrics.registry()).to(PrometheusMeterRegistry.class);
                bind(new ValueCache()).to(ValueCache.class);
            }
        });
        register(CategoryResource.class);
        register(ItemResource.class);
        register(CacheResource.class);
        register(ActuatorResource.class);
    }
}
