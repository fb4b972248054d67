package dev.restbench.springmvc.system;

import dev.restbench.spring.ProblemReportValve;

import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stands in for services/spring-mvc's {@code system/TomcatConfiguration.java}: the same valve, with Boot 3.5's
 * {@code TomcatServletWebServerFactory} (Boot 4 moved it to {@code org.springframework.boot.tomcat.servlet}). Only
 * when the jar runs on Tomcat: services/spring-mvc-boot3-undertow compiles it with Undertow as the server.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.apache.catalina.startup.Tomcat")
class TomcatConfiguration {

    /** Problem details also for the requests Tomcat refuses itself (see ProblemReportValve). */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReportValve() {
        return factory -> factory.addContextCustomizers(context -> {
            if (!(context.getParent() instanceof StandardHost host)) {
                throw new IllegalStateException("expected the Tomcat context inside a StandardHost");
            }
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
        });
    }
}
