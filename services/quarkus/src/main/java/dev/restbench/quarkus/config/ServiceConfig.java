package dev.restbench.quarkus.config;

import java.util.Map;
import java.util.Properties;

/**
 * The service settings of docs/ARCHITECTURE.md ("Service configuration"): each from the Java system property of the
 * lowercase dotted name ({@code db.pool.size}), else the environment variable ({@code DB_POOL_SIZE}), else the
 * default. Read and checked once in {@code Main} before Quarkus starts, so a bad value exits with 2 and one line;
 * Quarkus itself reads the same names through the expressions in application.properties (MicroProfile Config
 * looks a dotted name up as a system property, then as the upper-case environment variable).
 */
public record ServiceConfig(
        String bindAddress,
        int port,
        String dbUrl,
        String dbUser,
        String dbPassword,
        int dbPoolSize,
        int httpThreads,
        long maxBodyBytes) {

    public static final int DEFAULT_PORT = 8084;

    private static volatile ServiceConfig current;

    public ServiceConfig {
        require(port >= 0 && port <= 65535, "PORT must be between 0 and 65535, got " + port);
        require(dbPoolSize >= 1, "DB_POOL_SIZE must be at least 1, got " + dbPoolSize);
        require(httpThreads >= 1, "HTTP_THREADS must be at least 1, got " + httpThreads);
        require(maxBodyBytes >= 1, "MAX_BODY_BYTES must be at least 1, got " + maxBodyBytes);
    }

    public static ServiceConfig fromEnvironment() {
        return from(System.getenv(), System.getProperties());
    }

    /** The settings this process started with (read in Main); the defaults when Main did not run. */
    public static ServiceConfig current() {
        ServiceConfig config = current;
        if (config == null) {
            config = fromEnvironment();
            current = config;
        }
        return config;
    }

    public static void setCurrent(ServiceConfig config) {
        current = config;
    }

    /** Reads the settings; throws IllegalArgumentException with a message naming the bad variable. */
    public static ServiceConfig from(Map<String, String> env, Properties properties) {
        Settings settings = new Settings(env, properties);
        return new ServiceConfig(
                settings.string("BIND_ADDRESS", "127.0.0.1"),
                settings.integer("PORT", DEFAULT_PORT),
                settings.string("DB_URL", "jdbc:postgresql://127.0.0.1:54329/bench"),
                settings.string("DB_USER", "postgres"),
                settings.string("DB_PASSWORD", "postgres"),
                settings.integer("DB_POOL_SIZE", 16),
                settings.integer("HTTP_THREADS", 64),
                settings.longInteger("MAX_BODY_BYTES", 65536));
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    private record Settings(Map<String, String> env, Properties properties) {

        String string(String variable, String defaultValue) {
            String property = properties.getProperty(variable.toLowerCase().replace('_', '.'));
            if (property != null && !property.isBlank()) {
                return property.trim();
            }
            String value = env.get(variable);
            return value == null || value.isBlank() ? defaultValue : value.trim();
        }

        int integer(String variable, int defaultValue) {
            long value = longInteger(variable, defaultValue);
            if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
                throw new IllegalArgumentException(variable + " is out of range: " + value);
            }
            return (int) value;
        }

        long longInteger(String variable, long defaultValue) {
            String text = string(variable, null);
            if (text == null) {
                return defaultValue;
            }
            try {
                return Long.parseLong(text);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(variable + " must be an integer, got '" + text + "'");
            }
        }
    }
}
