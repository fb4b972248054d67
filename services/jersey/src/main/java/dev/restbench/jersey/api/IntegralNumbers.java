package dev.restbench.jersey.api;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Integer properties as the contract's JSON Schema reads them: any JSON number whose value is whole is an integer, so
 * {@code 3}, {@code 3.0} and {@code 3e0} are all 3, and {@code 3.5} is a wrong type (400). Jackson either rejects
 * every number written with a fraction or exponent ({@code ACCEPT_FLOAT_AS_INT} off) or truncates 3.5 to 3 (on).
 */
final class IntegralNumbers {

    private IntegralNumbers() {
    }

    static SimpleModule module() {
        SimpleModule module = new SimpleModule("integral-numbers");
        module.addDeserializer(Long.class, new WholeLong());
        return module;
    }

    /** A JSON number with a whole value as a Long; null stays null (the validator reports it as missing). */
    private static final class WholeLong extends StdScalarDeserializer<Long> {

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
