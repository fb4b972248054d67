package dev.restbench.spring;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.deser.std.StdScalarDeserializer;
import tools.jackson.databind.module.SimpleModule;

import java.math.BigDecimal;
import java.util.function.LongFunction;

/**
 * Integer properties as the contract's JSON Schema reads them: any JSON number whose value is whole is an integer, so
 * {@code 3}, {@code 3.0} and {@code 3e0} are all 3, and {@code 3.5} or a value beyond the Java type is a wrong type
 * (400). Jackson either rejects every number written with a fraction or exponent ({@code accept-float-as-int} off)
 * or truncates 3.5 to 3 (on). Found by the fuzzer: {@code "stock": 12994.0} was refused.
 */
public final class IntegralNumbers {

    private IntegralNumbers() {
    }

    public static SimpleModule module() {
        SimpleModule module = new SimpleModule("integral-numbers");
        WholeNumber<Integer> integer = new WholeNumber<>(Integer.class, Integer.MIN_VALUE, Integer.MAX_VALUE,
                value -> (int) value);
        WholeNumber<Long> longer = new WholeNumber<>(Long.class, Long.MIN_VALUE, Long.MAX_VALUE, value -> value);
        module.addDeserializer(Integer.class, integer);
        module.addDeserializer(Integer.TYPE, integer);
        module.addDeserializer(Long.class, longer);
        module.addDeserializer(Long.TYPE, longer);
        return module;
    }

    private static final class WholeNumber<T> extends StdScalarDeserializer<T> {

        /** More digits before the point than a long has: out of range, and never expanded (1e999999999). */
        private static final int MAX_INTEGER_DIGITS = 19;

        private final Class<T> type;
        private final long min;
        private final long max;
        private final LongFunction<T> box;

        WholeNumber(Class<T> type, long min, long max, LongFunction<T> box) {
            super(type);
            this.type = type;
            this.min = min;
            this.max = max;
            this.box = box;
        }

        @Override
        @SuppressWarnings("unchecked")
        public T deserialize(JsonParser parser, DeserializationContext context) throws JacksonException {
            JsonToken token = parser.currentToken();
            if (token != JsonToken.VALUE_NUMBER_INT && token != JsonToken.VALUE_NUMBER_FLOAT) {
                return (T) context.handleUnexpectedToken(type, parser);
            }
            BigDecimal value = parser.getDecimalValue().stripTrailingZeros();
            if (value.scale() > 0) {
                return (T) context.handleWeirdNumberValue(type, value, "not a whole number");
            }
            if (value.precision() - value.scale() > MAX_INTEGER_DIGITS
                    || value.compareTo(BigDecimal.valueOf(min)) < 0 || value.compareTo(BigDecimal.valueOf(max)) > 0) {
                return (T) context.handleWeirdNumberValue(type, value, "out of range");
            }
            return box.apply(value.longValueExact());
        }
    }
}
