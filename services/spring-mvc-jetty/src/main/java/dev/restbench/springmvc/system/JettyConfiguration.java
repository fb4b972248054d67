package dev.restbench.springmvc.system;

import dev.restbench.spring.TraceDispatcherServlet;
import org.eclipse.jetty.ee11.webapp.AbstractConfiguration;
import org.eclipse.jetty.ee11.webapp.WebAppContext;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcProperties;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Jetty's counterpart of spring-mvc's TomcatConfiguration: problem details also for what Jetty answers itself,
 * outside Spring (a request line or header it cannot parse, an ambiguous URI, a method its servlet layer refuses).
 */
@Configuration(proxyBeanMethods = false)
class JettyConfiguration {

    /** First of all filters: see JettyEdgeFilter. */
    @Bean
    FilterRegistrationBean<JettyEdgeFilter> jettyEdgeFilter() {
        FilterRegistrationBean<JettyEdgeFilter> registration = new FilterRegistrationBean<>(new JettyEdgeFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Replaces Boot's dispatcherServlet bean (same name, Boot's defaults): see TraceDispatcherServlet. */
    @Bean(name = DispatcherServletAutoConfiguration.DEFAULT_DISPATCHER_SERVLET_BEAN_NAME)
    DispatcherServlet dispatcherServlet(WebMvcProperties properties) {
        DispatcherServlet servlet = new TraceDispatcherServlet();
        servlet.setDispatchOptionsRequest(properties.isDispatchOptionsRequest());
        servlet.setPublishEvents(properties.isPublishRequestHandledEvents());
        servlet.setEnableLoggingRequestDetails(properties.isLogRequestDetails());
        return servlet;
    }

    @Bean
    WebServerFactoryCustomizer<JettyServletWebServerFactory> problemErrorHandlers() {
        return factory -> {
            factory.addServerCustomizers(server -> server.setErrorHandler(new ProblemErrorHandlers.Server()));
            // The context's handler is set while the context starts (Spring Boot's own error-page configuration):
            // a configuration added here runs after Boot's, so this one is the handler that stays.
            factory.addConfigurations(new AbstractConfiguration(new AbstractConfiguration.Builder()) {
                @Override
                public void configure(WebAppContext context) {
                    context.setErrorHandler(new ProblemErrorHandlers.Servlet());
                }
            });
        };
    }
}
