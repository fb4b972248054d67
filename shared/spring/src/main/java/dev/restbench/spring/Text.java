package dev.restbench.spring;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A text property as the contract defines it (openapi.yaml, Code/Name/Description): at most {@code max} characters
 * counted as code points (as PostgreSQL's varchar(n) counts them, not UTF-16 units as {@code @Size} does), no
 * U+0000 (PostgreSQL text cannot hold it), and unless {@code optional}, present and not blank. Blank means nothing
 * but whitespace (Unicode White_Space), control characters and U+FEFF; {@code @NotBlank} (Java's isWhitespace) calls
 * U+00A0 or U+0001 text. The fuzzer found both differences.
 */
@Documented
@Constraint(validatedBy = Text.Validator.class)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.RECORD_COMPONENT})
@Retention(RetentionPolicy.RUNTIME)
public @interface Text {

    int max();

    /** Null and blank allowed (a description); the length and U+0000 rules still hold. */
    boolean optional() default false;

    String message() default "is not valid text";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    final class Validator implements ConstraintValidator<Text, String> {

        private int max;
        private boolean optional;

        @Override
        public void initialize(Text text) {
            this.max = text.max();
            this.optional = text.optional();
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            String problem = problem(value);
            if (problem == null) {
                return true;
            }
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(problem).addConstraintViolation();
            return false;
        }

        private String problem(String value) {
            if (value == null) {
                return optional ? null : "must not be null";
            }
            if (!optional && isBlank(value)) {
                return "must not be blank";
            }
            if (value.codePointCount(0, value.length()) > max) {
                return "must be at most " + max + " characters";
            }
            if (value.indexOf('\u0000') >= 0) {
                return "must not contain the NUL character (U+0000)";
            }
            return null;
        }

        static boolean isBlank(String value) {
            return value.codePoints().allMatch(c -> Character.isWhitespace(c) || Character.isSpaceChar(c)
                    || Character.isISOControl(c) || c == 0xFEFF);
        }
    }
}
