package dev.restbench.springmvc.system;

import dev.restbench.spring.TraceDispatcherServlet;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.web.servlet.DispatcherServletAutoConfiguration;
import org.springframework.boot.autoconfigure.web.servlet.WebMvcProperties;
import org.springframework.boot.web.embedded.undertow.UndertowServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * Undertow's counterpart of spring-mvc's TomcatConfiguration (and spring-mvc-jetty's JettyConfiguration): problem
 * details also for what Undertow answers itself, outside Spring, and TRACE as Spring's 405.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "io.undertow.Undertow")
class UndertowConfiguration {

    /**
     * CONNECT, targets that are no path, and errors Undertow ends without a body: see UndertowEdgeHandler. The initial
     * handler chain runs before the servlet layer maps the path (the outer chain only after).
     */
    @Bean
    WebServerFactoryCustomizer<UndertowServletWebServerFactory> undertowEdgeHandler() {
        return factory -> factory.addDeploymentInfoCustomizers(
                deployment -> deployment.addInitialHandlerChainWrapper(UndertowEdgeHandler::new));
    }

    /** First of all filters: {@code sendError} as a problem detail (see ProblemSendErrorFilter). */
    @Bean
    FilterRegistrationBean<ProblemSendErrorFilter> problemSendErrorFilter() {
        var registration = new FilterRegistrationBean<>(new ProblemSendErrorFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        return registration;
    }

    /** Replaces Boot's dispatcherServlet bean (same name, Boot's defaults): see TraceDispatcherServlet. */
    @Bean(name = DispatcherServletAutoConfiguration.DEFAULT_DISPATCHER_SERVLET_BEAN_NAME)
    DispatcherServlet dispatcherServlet(WebMvcProperties properties) {
        DispatcherServlet servlet = new TraceDispatcherServlet();
        servlet.setDispatchOptionsRequest(properties.isDispatchOptionsRequest());
        servlet.setDispatchTraceRequest(properties.isDispatchTraceRequest());
        servlet.setPublishEvents(properties.isPublishRequestHandledEvents());
        servlet.setEnableLoggingRequestDetails(properties.isLogRequestDetails());
        return servlet;
    }
}
