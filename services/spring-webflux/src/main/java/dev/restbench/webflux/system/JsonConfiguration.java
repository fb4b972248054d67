package dev.restbench.webflux.system;

import dev.restbench.spring.IntegralNumbers;
import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/** spring-mvc's JSON rules (its JsonConfiguration); WebFlux's codecs use Boot's JsonMapper. */
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
}
