package dev.restbench.quarkus.api;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Quarkus builds the one ObjectMapper (with the java.time module, dates as ISO strings, unknown properties ignored);
 * this makes it as strict about types as every plain variant: a number where a string belongs, "12" for a number and
 * 1.5 for an integer are 400s, while 2.0 and 3e0 are the integers 2 and 3, as the contract's JSON Schema reads them.
 */
@Singleton
public class JsonCustomizer implements ObjectMapperCustomizer {

    @Override
    @SuppressWarnings("deprecation") // MapperFeature via configure(): the mapper is already built by Quarkus
    public void customize(ObjectMapper mapper) {
        mapper.registerModule(new SimpleModule("integral-numbers").addDeserializer(Long.class, new WholeLong()));
        mapper.disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        mapper.enable(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN);
        mapper.disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.configure(MapperFeature.ALLOW_COERCION_OF_SCALARS, false);
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    }

    /** A JSON number with a whole value as a Long; null stays null (the validator reports it as missing). */
    static final class WholeLong extends StdScalarDeserializer<Long> {

        /** Digits before the point above which the value is out of range anyway (and never expanded). */
        private static final int MAX_INTEGER_DIGITS = 19;

        WholeLong() {
            super(Long.class);
        }

        @Override
        public Long deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonToken token = parser.currentToken();
            if (token == JsonToken.VALUE_NUMBER_INT) {
                return parser.getLongValue();
            }
            if (token != JsonToken.VALUE_NUMBER_FLOAT) {
                return (Long) context.handleUnexpectedToken(Long.class, parser);
            }
            BigDecimal value = parser.getDecimalValue().stripTrailingZeros();
            if (value.scale() > 0) {
                return (Long) context.handleWeirdNumberValue(Long.class, value, "not a whole number");
            }
            if (value.precision() - value.scale() > MAX_INTEGER_DIGITS) {
                return (Long) context.handleWeirdNumberValue(Long.class, value, "out of range");
            }
            try {
                return value.longValueExact();
            } catch (ArithmeticException e) {
                return (Long) context.handleWeirdNumberValue(Long.class, value, "out of range");
            }
        }
    }
}
