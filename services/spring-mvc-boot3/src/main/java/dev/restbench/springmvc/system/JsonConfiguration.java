package dev.restbench.springmvc.system;

import com.fasterxml.jackson.databind.Module;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.restbench.springmvc.web.BodySizeLimitFilter;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stands in for services/spring-mvc's {@code system/JsonConfiguration.java}, which is written against Jackson 3 and
 * Boot 4's {@code JsonMapperBuilderCustomizer}: the same three beans on Jackson 2 and Boot 3.5's
 * {@code Jackson2ObjectMapperBuilderCustomizer}.
 */
@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    /** A number or boolean where the API expects a string ({@code "code": 5}) is a wrong type (400). */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer strictStrings() {
        return builder -> builder.postConfigurer(mapper -> mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
    }

    /** 3.0 is the integer 3, 3.5 is a wrong type (400); Boot adds every Module bean to its mapper. */
    @Bean
    Module integralNumbers() {
        return IntegralNumbers.module();
    }

    /** BodySizeLimitFilter's 413 problem, written by the application's JSON mapper. */
    @Bean
    BodySizeLimitFilter.ProblemWriter problemWriter(ObjectMapper json) {
        return json::writeValue;
    }
}
