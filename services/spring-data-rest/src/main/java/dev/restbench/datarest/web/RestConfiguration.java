package dev.restbench.datarest.web;

import dev.restbench.spring.IntegralNumbers;

import jakarta.validation.Validator;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.Environment;
import org.springframework.data.domain.Sort;
import org.springframework.data.rest.core.config.RepositoryRestConfiguration;
import org.springframework.data.rest.core.event.ValidatingRepositoryEventListener;
import org.springframework.data.rest.webmvc.config.RepositoryRestConfigurer;
import org.springframework.data.rest.webmvc.support.JpaHelper;
import org.springframework.data.web.SortHandlerMethodArgumentResolver;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.handler.MappedInterceptor;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/** How Spring Data REST is tuned to honour the API rules shared by all variants. */
@Configuration(proxyBeanMethods = false)
public class RestConfiguration implements RepositoryRestConfigurer {

    private final Validator validator;

    public RestConfiguration(Validator validator) {
        this.validator = validator;
    }

    /** DELETE answers 204 without a body, as in the plain API (SDR returns the deleted entity when asked to). */
    @Override
    public void configureRepositoryRestConfiguration(RepositoryRestConfiguration config, CorsRegistry cors) {
        config.setReturnBodyOnDelete(false);
    }

    /** Bean Validation on POST (beforeCreate) and PUT/PATCH (beforeSave): 400 with the failing properties. */
    @Override
    public void configureValidatingRepositoryEventListener(ValidatingRepositoryEventListener listener) {
        SpringValidatorAdapter adapter = new SpringValidatorAdapter(validator);
        listener.addValidator("beforeCreate", adapter);
        listener.addValidator("beforeSave", adapter);
    }

    /**
     * Boot applies these to Spring Data REST's own mapper too. A number or boolean where a string belongs
     * ({@code "code": true}) is a wrong type (400), not "true"; found by the fuzzer on PATCH.
     */
    @Bean
    JsonMapperBuilderCustomizer strictStrings() {
        return builder -> builder.withCoercionConfig(LogicalType.Textual, config -> config
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    /** 3.0 is the integer 3, 3.5 is a wrong type (400): {@link IntegralNumbers}. */
    @Bean
    JsonMapperBuilderCustomizer integralNumbers() {
        return builder -> builder.addModule(IntegralNumbers.module());
    }

    /** SDR clamps out-of-range paging parameters; the API rejects them (400) like the plain variants do. */
    @Bean
    MappedInterceptor pagingParametersInterceptor(
            @Value("${spring.data.rest.default-page-size}") int defaultPageSize,
            @Value("${spring.data.rest.max-page-size}") int maxPageSize) {
        return new MappedInterceptor(new String[] {"/categories", "/items", "/items/search/*"},
                new PagingParametersInterceptor(defaultPageSize, maxPageSize));
    }

    @Bean
    @Order(1)
    MappedInterceptor readOnlySearchInterceptor() {
        return new MappedInterceptor(new String[] {"/items/search", "/items/search/*"}, new ReadOnlySearchInterceptor());
    }

    @Bean
    @Order(2)
    MappedInterceptor requestContentTypeInterceptor() {
        return new MappedInterceptor(new String[] {"/categories/**", "/items/**"}, new RequestContentTypeInterceptor());
    }

    @Bean
    MappedInterceptor profileNameInterceptor() {
        return new MappedInterceptor(new String[] {"/profile/*"}, new ProfileNameInterceptor());
    }

    @Bean
    SimpleUrlHandlerMapping methodNotAllowedMapping() {
        return MethodNotAllowedHandler.mapping();
    }

    /** Collections are ordered by id unless the client asks for another {@code sort}, as in the plain API. */
    @Bean
    static BeanPostProcessor sortByIdByDefault() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
                if (bean instanceof SortHandlerMethodArgumentResolver sortResolver) {
                    sortResolver.setFallbackSort(Sort.by("id"));
                }
                return bean;
            }
        };
    }

    /**
     * Spring Data REST registers an OpenEntityManagerInViewInterceptor on its own handler mapping whatever
     * {@code spring.jpa.open-in-view} says. With Spring Boot's connection handling that holds a pooled
     * connection from the first query until the response is written. The benchmark runs every variant without
     * open-session-in-view, so the property is honoured here too: each repository call is its own transaction
     * and the finders fetch what the response renders.
     */
    @Bean
    static BeanPostProcessor openEntityManagerInViewFollowsProperty(Environment environment) {
        boolean openInView = environment.getProperty("spring.jpa.open-in-view", Boolean.class, true);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) throws BeansException {
                if (!openInView && bean instanceof JpaHelper jpaHelper) {
                    jpaHelper.getInterceptors().clear();
                }
                return bean;
            }
        };
    }
}
