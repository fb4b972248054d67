package dev.restbench.springmvc.system;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.math.BigDecimal;
import java.util.function.LongFunction;

/**
 * Stands in for shared/spring's {@code dev.restbench.spring.IntegralNumbers} (Jackson 3, {@code tools.jackson}) on
 * Jackson 2: the same rule, so {@code 3}, {@code 3.0} and {@code 3e0} are the integer 3 and {@code 3.5} or a value
 * beyond the Java type is a wrong type (400). Only the package names and the checked IOException differ.
 */
final class IntegralNumbers {

    private IntegralNumbers() {
    }

    static SimpleModule module() {
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
        public T deserialize(JsonParser parser, DeserializationContext context) throws IOException {
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
