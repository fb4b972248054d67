package dev.restbench.plain.api;

import dev.restbench.plain.model.CategoryRequest;
import dev.restbench.plain.model.ItemRequest;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/** The validation rules of the plain API; every violated rule is listed, not only the first. */
public final class RequestValidator {

    private static final BigDecimal MAX_PRICE = new BigDecimal("99999999.99");
    /** PostgreSQL text cannot hold U+0000: without this check the INSERT would fail as a server error. */
    private static final String NUL_MESSAGE = "must not contain the NUL character (\\u0000)";

    private RequestValidator() {
    }

    public static CategoryRequest valid(CategoryRequest request) {
        requireBody(request);
        List<FieldError> errors = new ArrayList<>();
        text(errors, "code", request.code(), 64);
        text(errors, "name", request.name(), 200);
        throwIfAny(errors);
        return request;
    }

    public static ItemRequest valid(ItemRequest request) {
        requireBody(request);
        List<FieldError> errors = new ArrayList<>();
        text(errors, "sku", request.sku(), 64);
        text(errors, "name", request.name(), 200);
        price(errors, request.price());
        if (request.stock() == null) {
            errors.add(new FieldError("stock", "is required"));
        } else if (request.stock() < 0 || request.stock() > Integer.MAX_VALUE) {
            errors.add(new FieldError("stock", "must be between 0 and " + Integer.MAX_VALUE));
        }
        if (request.description() != null) {
            if (length(request.description()) > 8192) {
                errors.add(new FieldError("description", "must be at most 8192 characters"));
            } else if (hasNul(request.description())) {
                errors.add(new FieldError("description", NUL_MESSAGE));
            }
        }
        if (request.categoryId() == null) {
            errors.add(new FieldError("categoryId", "is required"));
        }
        throwIfAny(errors);
        return request;
    }

    private static void requireBody(Object body) {
        if (body == null) {
            throw ProblemException.badRequest("a JSON object is required as the request body", List.of());
        }
    }

    private static void text(List<FieldError> errors, String field, String value, int maxLength) {
        if (value == null) {
            errors.add(new FieldError(field, "is required"));
        } else if (isBlank(value)) {
            errors.add(new FieldError(field, "must not be blank"));
        } else if (length(value) > maxLength) {
            errors.add(new FieldError(field, "must be at most " + maxLength + " characters"));
        } else if (hasNul(value)) {
            errors.add(new FieldError(field, NUL_MESSAGE));
        }
    }

    private static void price(List<FieldError> errors, BigDecimal price) {
        if (price == null) {
            errors.add(new FieldError("price", "is required"));
        } else if (price.signum() < 0 || price.compareTo(MAX_PRICE) > 0) {
            errors.add(new FieldError("price", "must be between 0 and " + MAX_PRICE));
        } else if (price.stripTrailingZeros().scale() > 2) {
            errors.add(new FieldError("price", "must have at most 2 decimals"));
        }
    }

    /**
     * Blank as the contract defines it (openapi.yaml, the {@code pattern} of Code/Name): nothing but whitespace
     * (Unicode White_Space), control characters (U+0000-U+001F, U+007F-U+009F) and U+FEFF. Java's
     * {@code String.isBlank} differs: to it U+00A0, U+2007, U+202F, U+FEFF and controls such as U+0001 are text.
     */
    static boolean isBlank(String value) {
        return value.codePoints().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)
                || Character.isISOControl(c) || c == 0xFEFF);
    }

    /** Characters as PostgreSQL counts them (code points), so the limits agree with varchar(n). */
    private static int length(String value) {
        return value.codePointCount(0, value.length());
    }

    private static boolean hasNul(String value) {
        return value.indexOf('\u0000') >= 0;
    }

    private static void throwIfAny(List<FieldError> errors) {
        if (!errors.isEmpty()) {
            throw ProblemException.badRequest("the request has invalid fields", errors);
        }
    }
}
