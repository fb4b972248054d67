package dev.restbench.springmvc.system;

import dev.restbench.spring.IntegralNumbers;
import dev.restbench.springmvc.web.BodySizeLimitFilter;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.type.LogicalType;

@Configuration(proxyBeanMethods = false)
class JsonConfiguration {

    /**
     * A number or boolean where the API expects a string ({@code "code": 5}) is a wrong type (400), like a string
     * where it expects a number (application.properties turns off scalar coercion for those).
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

    /** BodySizeLimitFilter's 413 problem, written by the application's JSON mapper. */
    @Bean
    BodySizeLimitFilter.ProblemWriter problemWriter(JsonMapper json) {
        return json::writeValue;
    }
}
