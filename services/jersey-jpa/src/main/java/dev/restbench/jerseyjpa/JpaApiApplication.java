package dev.restbench.jerseyjpa;

import dev.restbench.jersey.api.ActuatorResource;
import dev.restbench.jersey.api.JsonMapperProvider;
import dev.restbench.jersey.api.ProblemMapper;
import dev.restbench.jersey.config.ServiceConfig;
import dev.restbench.jersey.http.BodySizeLimitFilter;
import dev.restbench.jersey.http.ContentTypeCheckFilter;
import dev.restbench.jersey.metrics.ServiceMetrics;
import dev.restbench.jerseyjpa.api.CategoryResource;
import dev.restbench.jerseyjpa.api.ItemResource;
import dev.restbench.jerseyjpa.data.CategoryStore;
import dev.restbench.jerseyjpa.data.ItemStore;
import dev.restbench.jerseyjpa.data.JpaDatabase;
import dev.restbench.jerseyjpa.data.Transactions;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import javax.sql.DataSource;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.internal.inject.AbstractBinder;
import org.glassfish.jersey.jackson.JacksonFeature;
import org.glassfish.jersey.micrometer.server.DefaultJerseyTagsProvider;
import org.glassfish.jersey.micrometer.server.MetricsApplicationEventListener;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;

/**
 * jersey's ApiApplication with the JPA stores bound instead of the JDBC repositories: the same properties, providers,
 * filters and metrics listener, registered explicitly (no classpath scanning).
 */
final class JpaApiApplication extends ResourceConfig {

    JpaApiApplication(ServiceConfig config, JpaDatabase database, ServiceMetrics metrics) {
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

        Transactions transactions = new Transactions(database.entityManagerFactory());
        // Resources are singletons built by HK2 from these instances (eclipse-ee4j/jersey#3700, as in jersey).
        register(new AbstractBinder() {
            @Override
            protected void configure() {
                bind(new CategoryStore(transactions)).to(CategoryStore.class);
                bind(new ItemStore(transactions)).to(ItemStore.class);
                // The health check validates a connection of the pool Hibernate opened.
                bind(database.dataSource()).to(DataSource.class);
                bind(metrics.registry()).to(PrometheusMeterRegistry.class);
            }
        });
        register(CategoryResource.class);
        register(ItemResource.class);
        register(ActuatorResource.class);
    }
}
