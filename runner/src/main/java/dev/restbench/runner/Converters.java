package dev.restbench.runner;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option values with a range: a bad one is a usage error naming the option (exit 2). */
public final class Converters {

    private Converters() {
    }

    /** An integer ≥ 1. */
    public static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            try {
                int value = Integer.parseInt(text);
                if (value >= 1) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("must be a positive integer, was '" + text + "'");
        }
    }

    /** A finite number > 0. */
    public static final class PositiveNumber implements ITypeConverter<Double> {
        @Override
        public Double convert(String text) {
            try {
                double value = Double.parseDouble(text);
                if (value > 0 && Double.isFinite(value)) {
                    return value;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("must be a positive number, was '" + text + "'");
        }
    }

    /** A TCP port to connect to: 1 to 65535. */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return port(text, 1);
        }
    }

    /** A TCP port to listen on: 0 (a free one) to 65535. */
    public static final class ListenPort implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String text) {
            return port(text, 0);
        }
    }

    private static int port(String text, int min) {
        try {
            int port = Integer.parseInt(text);
            if (port >= min && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new TypeConversionException("must be a number from " + min + " to 65535, was '" + text + "'");
    }
}
